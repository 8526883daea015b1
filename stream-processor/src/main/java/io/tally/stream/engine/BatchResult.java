package io.tally.stream.engine;

import java.util.Optional;

/**
 * The outcome of one batch. When a record failed, the stream must be read again from it: report its sequence
 * number as the only batch item failure, and the retry starts there.
 */
public final class BatchResult {
    private final String failedSequenceNumber;
    private final int records;
    private final int skipped;
    private final int poison;
    private final int derivedWrites;
    private final int failedWrites;
    private final int eventsPublished;
    private final int eventsFailed;
    private final int eventsDeadLettered;
    private final int writesDeadLettered;
    private final String refusal;

    BatchResult(String failedSequenceNumber, int records, int skipped, int poison, int derivedWrites, int failedWrites,
                int eventsPublished, int eventsFailed, int eventsDeadLettered, int writesDeadLettered, String refusal) {
        this.failedSequenceNumber = failedSequenceNumber;
        this.records = records;
        this.skipped = skipped;
        this.poison = poison;
        this.derivedWrites = derivedWrites;
        this.failedWrites = failedWrites;
        this.eventsPublished = eventsPublished;
        this.eventsFailed = eventsFailed;
        this.eventsDeadLettered = eventsDeadLettered;
        this.writesDeadLettered = writesDeadLettered;
        this.refusal = refusal;
    }

    static BatchResult empty() {
        return new BatchResult(null, 0, 0, 0, 0, 0, 0, 0, 0, 0, null);
    }

    /** @param failedPadded the zero-padded sequence of the first record not fully processed, or null */
    static BatchResult of(BatchPlan plan, int records, String failedPadded, int derivedWrites, int failedWrites,
                          int writesDeadLettered, EventRelease.Outcome events, String refusal) {
        return new BatchResult(failedPadded == null ? null : plan.sequenceNumberOf(failedPadded), records,
                plan.skipped(), plan.poison(), derivedWrites, failedWrites, events.published(), events.failed(),
                events.deadLettered(), writesDeadLettered, refusal);
    }

    /**
     * The sequence number (as delivered) of the first record that is not fully processed; empty when the whole
     * batch is. Every record before it is: its derived writes committed, its dead letter filed, its events
     * published.
     */
    public Optional<String> failedSequenceNumber() {
        return Optional.ofNullable(failedSequenceNumber);
    }

    public int records() {
        return records;
    }

    /** Records that derive nothing by design (derived items' echoes, types without a derivation). */
    public int skipped() {
        return skipped;
    }

    /** Records sent to the dead-letter route. */
    public int poison() {
        return poison;
    }

    /** Requests made to the derived store, refused ones included. */
    public int derivedWrites() {
        return derivedWrites;
    }

    /** Derived items whose write failed. */
    public int failedWrites() {
        return failedWrites;
    }

    public int eventsPublished() {
        return eventsPublished;
    }

    /** Events that failed and were not given up on: the retry publishes them. */
    public int eventsFailed() {
        return eventsFailed;
    }

    /** Events given up on after repeated failures and filed as a dead letter. */
    public int eventsDeadLettered() {
        return eventsDeadLettered;
    }

    /**
     * Derived writes DynamoDB refused for good, given up on after repeated failures and filed as dead letters: the
     * item lacks those records' contributions until a repair.
     */
    public int writesDeadLettered() {
        return writesDeadLettered;
    }

    /**
     * Why the shard's cursor refused the batch before any write (a delivery past the shard's pending failure,
     * another invocation holding the shard, the cursor unavailable); empty when the batch ran.
     */
    public Optional<String> refusal() {
        return Optional.ofNullable(refusal);
    }

    @Override
    public String toString() {
        return "BatchResult[failedSequenceNumber=" + failedSequenceNumber + ", records=" + records + ", skipped="
                + skipped + ", poison=" + poison + ", derivedWrites=" + derivedWrites + ", failedWrites=" + failedWrites
                + ", eventsPublished=" + eventsPublished + ", eventsFailed=" + eventsFailed + ", eventsDeadLettered="
                + eventsDeadLettered + ", writesDeadLettered=" + writesDeadLettered + (refusal == null ? "" : ", refusal=" + refusal) + "]";
    }
}
