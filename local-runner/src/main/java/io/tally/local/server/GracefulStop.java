package io.tally.local.server;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The calls a local server has in flight, for a stop that lets them finish: once stopping, a server refuses new calls
 * (answering "retry") and waits for those it took, for a short grace period at most.
 */
public final class GracefulStop {
    private static final Logger LOG = LoggerFactory.getLogger(GracefulStop.class);
    private static final long PAUSE_NANOS = Duration.ofMillis(10).toNanos();

    private final String server;
    private final Duration grace;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean stopping = new AtomicBoolean();

    /**
     * @param server what stops, for the log line when calls outlast the grace period
     * @param grace  how long a stop waits for the calls in flight
     */
    public GracefulStop(String server, Duration grace) {
        this.server = Objects.requireNonNull(server, "server");
        this.grace = Objects.requireNonNull(grace, "grace");
    }

    /**
     * Counts a call as in flight until its {@link #end}, whether it is taken or refused.
     *
     * @return whether to take it: false once stopping
     */
    public boolean begin() {
        inFlight.incrementAndGet();
        return !stopping.get();
    }

    /** The call that {@link #begin} counted is over. */
    public void end() {
        inFlight.decrementAndGet();
    }

    /**
     * Refuses new calls, and waits for those in flight for the grace period at most.
     *
     * @return false when it was stopped already (nothing done)
     */
    public boolean stop() {
        if (!stopping.compareAndSet(false, true)) {
            return false;
        }
        long deadline = System.nanoTime() + grace.toNanos();
        while (inFlight.get() > 0 && System.nanoTime() < deadline && !Thread.currentThread().isInterrupted()) {
            LockSupport.parkNanos(PAUSE_NANOS);
        }
        if (inFlight.get() > 0) {
            LOG.warn("{}: {} call(s) still running after {} s; stopping anyway", server, inFlight.get(),
                    grace.toSeconds());
        }
        return true;
    }

    /** Calls in flight now. */
    public int inFlight() {
        return inFlight.get();
    }
}
