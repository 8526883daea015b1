package io.tally.stream.engine;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.logging.InvocationLog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies batches of stream records of one shard to derived data, exactly once per derived item, and publishes
 * their domain events after the derived writes they describe. See {@code docs/exactly-once.md}. Three parts do
 * the work: the {@link BatchPlanner} (derive, classify, coalesce per derived item), the {@link KeyWriter} (one
 * item's conditional write and its retries) and the {@link EventRelease} (events of the records before the first
 * failure); the engine runs the writes, and the {@link CascadeRun cascades} of removals, on its pool and reports the
 * batch.
 *
 * <p>Every derived item carries, per stream shard, the sequence number of the last record of that shard applied
 * to it (its watermark). A batch becomes one conditional UpdateItem per derived item (or a few, each of a run of
 * consecutive records, for an item the batch changes in more attributes than one write holds); the condition on the
 * watermark makes each write idempotent by itself, so duplicated batches, retries from any record, other batch
 * boundaries and a crash between two writes never count a record twice. This needs the records of a shard to be
 * processed one batch at a time, in order (Lambda's ParallelizationFactor 1).
 *
 * <p>Thread-safe for batches of different shards; the derived writes of a batch run concurrently on a bounded
 * pool owned by the engine: {@link #close()} it.
 */
public final class Engine implements AutoCloseable {
    /**
     * Derived writes of one batch in flight at once, unless the builder says otherwise. At DynamoDB's latencies a
     * batch's writes wait on the network far more than on this JVM: the benchmark's AWS-latency mode measured 8, 16
     * and 24 side by side (BENCHMARKS.md, "Calls in flight, side by side"; 16 gave about 1.45 times the records a
     * second of 8), and 16 let a shard written at its partition's limit keep up with a margin. The writes of a batch
     * address different items, so more in flight costs no more write units, only a higher momentary request rate.
     */
    public static final int DEFAULT_WRITE_CONCURRENCY = 16;
    private static final Logger LOG = LoggerFactory.getLogger(Engine.class);

    private final DeadLetterSink deadLetters;
    private final StreamMetrics metrics;
    private final BatchPlanner planner;
    private final KeyWriter writer;
    private final EventRelease release;
    private final WriteGiveUp writeGiveUp;
    private final CascadeRun cascades;
    private final PoisonLetters poisonLetters;
    private final ShardGuard guard;
    private final ShardLineages lineages;
    private final Duration defaultLease;
    private final Clock clock;
    private final ExecutorService executor;

    Engine(EngineBuilder builder) {
        this.deadLetters = Objects.requireNonNull(builder.deadLetters, "deadLetters");
        this.metrics = builder.metrics != null ? builder.metrics : new StreamMetrics(new SimpleMeterRegistry());
        this.planner = new BatchPlanner(Objects.requireNonNull(builder.derivations, "derivations"), metrics);
        this.writer = new KeyWriter(Objects.requireNonNull(builder.store, "store"), metrics);
        this.release = new EventRelease(Objects.requireNonNull(builder.publisher, "publisher"), deadLetters,
                new GiveUp(builder.eventAttempts, builder.eventGiveUpAfter), metrics);
        this.writeGiveUp = new WriteGiveUp(deadLetters,
                new GiveUp(builder.writeAttempts, builder.writeGiveUpAfter), metrics);
        this.cascades = new CascadeRun(builder.cascades, metrics);
        this.poisonLetters = new PoisonLetters(deadLetters, metrics);
        ShardCursors cursors = builder.cursors != null ? builder.cursors : new InMemoryShardCursors();
        this.guard = new ShardGuard(cursors, metrics, builder.releaseBackoff);
        this.lineages = new ShardLineages(cursors, builder.parents);
        this.defaultLease = builder.lease;
        this.clock = builder.clock != null ? builder.clock : Clock.systemUTC();
        if (builder.writeConcurrency < 1) {
            throw new IllegalArgumentException("write concurrency must be at least 1: " + builder.writeConcurrency);
        }
        this.executor = Executors.newFixedThreadPool(builder.writeConcurrency, new WriterThreads());
    }

    public static EngineBuilder builder() {
        return new EngineBuilder();
    }

    public StreamMetrics metrics() {
        return metrics;
    }

    /**
     * Processes a batch of records of one shard, in stream order, under a lease of its own (a fresh holder, the
     * builder's lease duration).
     *
     * @throws IllegalArgumentException when the records are of several shards or out of order
     */
    public BatchResult process(List<SourceRecord> batch) {
        return process(batch, new ShardCursors.Lease(UUID.randomUUID().toString(), clock.instant().plus(defaultLease)));
    }

    /**
     * Processes a batch of records of one shard, in stream order, holding the shard under {@code lease} (in Lambda:
     * the request id, until the invocation's deadline).
     *
     * @throws IllegalArgumentException when the records are of several shards or out of order
     */
    public BatchResult process(List<SourceRecord> batch, ShardCursors.Lease lease) {
        return process(batch, lease, ShardCursors.Chain.NONE);
    }

    /**
     * Processes a batch of records of one shard, in stream order, holding the shard under {@code lease}, with the
     * claim handed over to it and to be handed over by it as {@code chain} says (the windowed handler: the window's
     * state carries the claim from one invocation to the next, one cursor write a batch). The result's
     * {@link BatchResult#handover()} is what to pass on.
     *
     * @throws IllegalArgumentException when the records are of several shards or out of order
     */
    public BatchResult process(List<SourceRecord> batch, ShardCursors.Lease lease, ShardCursors.Chain chain) {
        long started = System.nanoTime();
        try {
            return run(batch, Objects.requireNonNull(lease, "lease"), Objects.requireNonNull(chain, "chain"));
        } finally {
            metrics.batchDuration(Duration.ofNanos(System.nanoTime() - started));
        }
    }

    /**
     * Releases a claim handed over to an invocation that has no record to process and none to hand over to (the last
     * of a tumbling window): the shard's next invocation, without the window's state, then claims it at once.
     *
     * @return false when the cursor could not be written: the invocation must fail, so that it is retried with the
     *         same state
     */
    public boolean releaseHandover(String shardId, ShardCursors.Handover handover) {
        Instant now = clock.instant();
        return guard.releaseHandedOver(shardId, new ShardCursors.Lease(handover.holder(), now), handover.progress(),
                now);
    }

    /**
     * The claim an invocation that takes none passes on: the one it received, or, at the end of a window (its chain
     * {@linkplain ShardCursors.Chain#handsOver hands nothing over}, the next window starts without the state), none,
     * once it is released. An invocation without records to process calls this; {@link #process} does it for a batch
     * it processes nothing of.
     *
     * @return the claim to hand over in the window's state (null: none); at a window's end, a claim returned could not
     *         be released, and the invocation must fail so that it is retried with the same state
     */
    public ShardCursors.Handover passOn(String shardId, ShardCursors.Chain chain) {
        if (!endsWindowWith(chain)) {
            return chain.received();
        }
        return releaseHandover(shardId, chain.received()) ? null : chain.received();
    }

    /**
     * Files a record that never became a {@link SourceRecord} (it could not be converted) on the dead-letter route.
     *
     * @return false when the sink failed: the caller must not let the stream move past the record
     */
    public boolean deadLetter(DeadLetter letter) {
        metrics.poison();
        try {
            deadLetters.send(letter);
            return true;
        } catch (RuntimeException e) {
            metrics.failure("dead-letter");
            LOG.warn("dead letter could not be filed: {}", letter.reason(), e);
            return false;
        }
    }

    private BatchResult run(List<SourceRecord> batch, ShardCursors.Lease lease, ShardCursors.Chain chain) {
        Instant now = clock.instant();
        String shardId = batch.isEmpty() ? null : batch.get(0).shardId();
        // The shard's lineage, which places its changes of shared items, is settled before its first claim.
        Supplier<String> lineage = shardId == null ? () -> null : lineages.of(shardId);
        BatchPlan plan;
        try {
            plan = planner.plan(batch, lineage, now);
        } catch (ShardLineages.Unavailable e) {
            return lineageUnavailable(planner.plan(batch, now), e, chain);
        }
        ShardCursors.Handover received = chain.received();
        if (plan.isIdle()) {
            // Nothing to write, file or publish (no records, or echoes of our own writes): no claim, so an idle stream
            // stays idle. A claim handed over is passed on, or released by the last invocation of its window.
            if (batch.isEmpty()) {
                return BatchResult.idle(plan, received);
            }
            ShardCursors.Handover left = passOn(plan.shardId(), chain);
            return left == null || !endsWindowWith(chain) ? BatchResult.idle(plan, left)
                    : BatchResult.refused(plan, "cursor unavailable: the claim handed over could not be released", left);
        }
        try {
            lineage.get();
        } catch (ShardLineages.Unavailable e) {
            return lineageUnavailable(plan, e, chain);
        }
        String first = plan.firstWork();
        String last = batch.get(batch.size() - 1).paddedSequence();
        ShardGuard.Admission admission = guard.admit(plan.shardId(), first, last, lease, chain, now);
        if (admission.refusal() != null) {
            // Nothing was claimed: the claim handed over, if any, is still the one to pass on, or to release when the
            // window ends here (a failed release passes it on: the caller must fail the invocation).
            return BatchResult.refused(plan, admission.refusal(), passOn(plan.shardId(), chain));
        }
        ShardCursors.Progress before = admission.before();
        List<Future<KeyWriter.Outcome>> writes = new ArrayList<>(plan.byKey().size());
        for (KeyContributions contributions : plan.byKey().values()) {
            // The invocation's log fields go along to the writer threads (the request id on their warnings).
            writes.add(executor.submit(
                    InvocationLog.carried(() -> writer.write(contributions, before.acknowledged()))));
        }
        List<CascadeRun.Pending> removals = cascades.start(plan, before.acknowledged(), executor);
        List<PoisonLetters.Pending> letters = poisonLetters.start(plan, executor);

        WrittenItems ended = WrittenItems.await(writes, metrics);
        WriteGiveUp.Filed givenUp = writeGiveUp.fileRefusedForGood(ended.failed(), plan, before, now);
        String failed = poisonLetters.awaitAll(letters, ended.failedAt());
        failed = Futures.min(failed, cascades.awaitAll(removals));

        EventRelease.Outcome events = release.releaseBefore(failed, plan.changes(), before, now);
        failed = Futures.min(failed, events.failedAt());
        ShardCursors.Progress after = before.after(first, last, failed, now)
                .withRefused(before.refused().after(givenUp.items(), ended.written(), now))
                .withOutage(events.outage());
        ShardCursors.Handover handover = null;
        if (failed == null && chain.handsOver() && admission.handsOver()) {
            // Completed: the claim stays, and the next invocation's claim stores this progress.
            handover = new ShardCursors.Handover(lease.holder(), first, after);
        } else if (!guard.release(plan.shardId(), lease, after, clock.instant())) {
            // The cursor still names this batch's first record: retrying the whole batch is safe and clears it (the
            // retry, handed this claim, takes it over at once).
            failed = first;
            handover = chain.handsOver() ? new ShardCursors.Handover(lease.holder(), first, before) : null;
        }
        metrics.coalescing(batch.size(), ended.requests());
        return BatchResult.ran(plan, failed,
                new BatchResult.Writes(ended.requests(), ended.failed().size(), givenUp.count()), events, handover);
    }

    /** Refuses a batch whose shard's lineage could not be read: nothing claimed, nothing written. */
    private BatchResult lineageUnavailable(BatchPlan plan, ShardLineages.Unavailable e, ShardCursors.Chain chain) {
        metrics.guard("unavailable");
        LOG.warn("{}; nothing written, the batch is retried", e.getMessage(), e.getCause());
        return BatchResult.refused(plan, "cursor unavailable: " + e.getMessage(), passOn(plan.shardId(), chain));
    }

    /** Whether the batch ends its window holding a claim handed over, which it must then release. */
    private static boolean endsWindowWith(ShardCursors.Chain chain) {
        return chain.received() != null && !chain.handsOver();
    }

    /** Waits for writes in flight, then stops the pool. */
    @Override
    public void close() {
        executor.shutdown();
        boolean interrupted = false;
        while (!executor.isTerminated()) {
            try {
                executor.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
