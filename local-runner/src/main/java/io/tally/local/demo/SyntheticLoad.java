package io.tally.local.demo;

import io.tally.core.demo.DemoApi;
import io.tally.core.demo.DemoLoad;
import io.tally.core.domain.DomainRegistry;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A steady stream of random writes through the writer API, at a bounded rate: each write is one domain's
 * ({@link DemoLoad}), chosen by the domains' weights, in proportions that keep every derived figure moving. One write
 * at a time, on one thread; a write that is refused or fails counts as failed and the load goes on.
 */
public final class SyntheticLoad implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SyntheticLoad.class);

    private final ApiClient api;
    private final double writesPerSecond;
    private final List<DemoLoad> loads = new ArrayList<>();
    private final int totalWeight;
    private final Random random;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private ScheduledExecutorService executor;

    /**
     * @param domains         whose loads take part
     * @param base            the writer API
     * @param writesPerSecond the rate, 1..1000
     */
    public SyntheticLoad(DomainRegistry domains, URI base, double writesPerSecond) {
        this(domains, base, writesPerSecond, new Random());
    }

    /** @param random the source of the writes' choices (a seeded one repeats them) */
    public SyntheticLoad(DomainRegistry domains, URI base, double writesPerSecond, Random random) {
        if (!(writesPerSecond >= 1 && writesPerSecond <= 1000)) {
            throw new IllegalArgumentException("writesPerSecond must be 1..1000, not " + writesPerSecond);
        }
        this.api = new ApiClient(base);
        this.writesPerSecond = writesPerSecond;
        this.random = random;
        domains.domains().forEach(domain -> domain.demoLoad().ifPresent(loads::add));
        this.totalWeight = loads.stream().mapToInt(DemoLoad::weight).sum();
        if (totalWeight <= 0) {
            throw new IllegalArgumentException("no domain has a synthetic load");
        }
    }
    /** Starts writing in the background until {@link #close}. */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("started before");
        }
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "tally-demo-load");
            thread.setDaemon(true);
            return thread;
        });
        long periodMicros = Math.round(1_000_000 / writesPerSecond);
        executor.scheduleAtFixedRate(this::writeOnce, 0, periodMicros, TimeUnit.MICROSECONDS);
    }

    /** Writes answered with 2xx so far. */
    public long writes() {
        return writes.get();
    }

    /** Writes refused or failed so far. */
    public long failed() {
        return failed.get();
    }

    /** One random write; never throws, so that the schedule goes on. */
    void writeOnce() {
        try {
            DemoApi.Reply reply = randomWrite();
            if (reply.ok()) {
                writes.incrementAndGet();
            } else {
                failed.incrementAndGet();
                LOG.debug("demo write refused: {} {}", reply.status(), reply.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            failed.incrementAndGet();
            LOG.debug("demo write failed", e);
        }
    }

    /** A write of the domain the weights pick. */
    private DemoApi.Reply randomWrite() throws IOException, InterruptedException {
        int pick = random.nextInt(totalWeight);
        for (DemoLoad load : loads) {
            pick -= load.weight();
            if (pick < 0) {
                return load.write(api, random);
            }
        }
        throw new IllegalStateException("weights changed");
    }

    /** Stops writing; the write in flight finishes. Idempotent. */
    @Override
    public synchronized void close() {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
