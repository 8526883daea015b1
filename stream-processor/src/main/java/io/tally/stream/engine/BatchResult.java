package io.tally.stream.engine;

import java.util.Optional;

/**
 * The outcome of one batch. When a record failed, the stream must be read again from it: report its sequence
 * number as the only batch item failure, and the retry starts there.
 */
public final class BatchResult {
    /**
     * The batch's records: all of them, those that derive nothing by design and those sent to the dead-letter route,
     * as the plan classified them.
     */
    record Records(int total, int skipped, int poison) {
        static Records of(BatchPlan plan) {
            return new Records(plan.changes().size(), plan.skipped(), plan.poison());
        }
    }

    /**
     * The batch's derived writes: the requests made to the derived store (refused ones included), the items whose
     * write failed and is retried, and those given up on and filed as dead letters.
     */
    record Writes(int requests, int failed, int deadLettered) {
        static final Writes NONE = new Writes(0, 0, 0);
    }

    private final String failedSequenceNumber;
    private final Records records;
    private final Writes writes;
    private final EventRelease.Outcome events;
    private final String refusal;
    private final ShardCursors.Handover handover;

    /** @param failedPadded the zero-padded sequence of the first record not fully processed, or null */
    private BatchResult(BatchPlan plan, String failedPadded, Writes writes, EventRelease.Outcome events,
                        String refusal, ShardCursors.Handover handover) {
        this.failedSequenceNumber = failedPadded == null ? null : plan.sequenceNumberOf(failedPadded);
        this.records = Records.of(plan);
        this.writes = writes;
        this.events = events;
        this.refusal = refusal;
        this.handover = handover;
    }

    /** A batch with nothing to write, file, remove or publish (no records, or only records that derive nothing). */
    static BatchResult idle(BatchPlan plan, ShardCursors.Handover handover) {
        return new BatchResult(plan, null, Writes.NONE, EventRelease.Outcome.NONE, null, handover);
    }

    /** A batch the shard's cursor refused before any write: the whole batch fails, from its first record. */
    static BatchResult refused(BatchPlan plan, String refusal, ShardCursors.Handover handover) {
        return new BatchResult(plan, plan.changes().get(0).paddedSequence(), Writes.NONE, EventRelease.Outcome.NONE,
                refusal, handover);
    }

    /**
     * A batch that ran: {@code failedPadded} is the zero-padded sequence of its first record not fully processed, null
     * when every record is.
     */
    static BatchResult ran(BatchPlan plan, String failedPadded, Writes writes, EventRelease.Outcome events,
                           ShardCursors.Handover handover) {
        return new BatchResult(plan, failedPadded, writes, events, null, handover);
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
        return records.total();
    }

    /** Records that derive nothing by design (derived items' echoes, types without a derivation). */
    public int skipped() {
        return records.skipped();
    }

    /** Records sent to the dead-letter route. */
    public int poison() {
        return records.poison();
    }

    /** Requests made to the derived store, refused ones included. */
    public int derivedWrites() {
        return writes.requests();
    }

    /** Derived items whose write failed. */
    public int failedWrites() {
        return writes.failed();
    }

    public int eventsPublished() {
        return events.published();
    }

    /** Events that failed and were not given up on: the retry publishes them. */
    public int eventsFailed() {
        return events.failed();
    }

    /** Events filed as a dead letter: refused for good by the bus, or given up on after repeated failures. */
    public int eventsDeadLettered() {
        return events.deadLettered();
    }

    /**
     * Derived writes DynamoDB refused for good, given up on after repeated failures and filed as dead letters: the
     * item lacks those records' contributions until a repair.
     */
    public int writesDeadLettered() {
        return writes.deadLettered();
    }

    /**
     * Why the shard's cursor refused the batch before any write (a delivery past the shard's pending failure,
     * another invocation holding the shard, the cursor unavailable); empty when the batch ran.
     */
    public Optional<String> refusal() {
        return Optional.ofNullable(refusal);
    }

    /**
     * The claim to hand over to the shard's next invocation through the window's state ({@link ShardCursors.Chain}):
     * this batch's, left in place, or the one it received and did not take; empty when the claim was released (the
     * next invocation claims afresh). At a window's end ({@link ShardCursors.Chain#handsOver()} false) the engine
     * releases a claim it received and did not take: one returned then could not be released, and the invocation
     * must fail so that it is retried with the same state.
     */
    public Optional<ShardCursors.Handover> handover() {
        return Optional.ofNullable(handover);
    }

    @Override
    public String toString() {
        return "BatchResult[failedSequenceNumber=" + failedSequenceNumber + ", records=" + records() + ", skipped="
                + skipped() + ", poison=" + poison() + ", derivedWrites=" + derivedWrites() + ", failedWrites="
                + failedWrites() + ", eventsPublished=" + eventsPublished() + ", eventsFailed=" + eventsFailed()
                + ", eventsDeadLettered=" + eventsDeadLettered() + ", writesDeadLettered=" + writesDeadLettered()
                + (refusal == null ? "" : ", refusal=" + refusal) + (handover == null ? "" : ", handover=" + handover)
                + "]";
    }
}
