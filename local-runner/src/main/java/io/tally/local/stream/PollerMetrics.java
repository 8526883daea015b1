package io.tally.local.stream;

import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/** The poller's counters, updated by every shard worker. */
final class PollerMetrics {
    private final LongAdder invocations = new LongAdder();
    private final LongAdder recordsDelivered = new LongAdder();
    private final LongAdder recordsProcessed = new LongAdder();
    private final LongAdder retries = new LongAdder();
    private final LongAdder batchesDiscarded = new LongAdder();
    private final LongAdder recordsDiscarded = new LongAdder();
    private final LongAdder recordsFiltered = new LongAdder();

    void invoked(int records, boolean retry) {
        invocations.increment();
        recordsDelivered.add(records);
        if (retry) {
            retries.increment();
        }
    }

    void processed(int records) {
        recordsProcessed.add(records);
    }

    void discarded(int records) {
        batchesDiscarded.increment();
        recordsDiscarded.add(records);
    }

    /** Records the mapping's filter passed over: read, never delivered. */
    void filtered(int records) {
        recordsFiltered.add(records);
    }

    long invocations() {
        return invocations.sum();
    }

    long recordsDelivered() {
        return recordsDelivered.sum();
    }

    long recordsProcessed() {
        return recordsProcessed.sum();
    }

    long retries() {
        return retries.sum();
    }

    long batchesDiscarded() {
        return batchesDiscarded.sum();
    }

    long recordsDiscarded() {
        return recordsDiscarded.sum();
    }

    long recordsFiltered() {
        return recordsFiltered.sum();
    }

    /** The counters now, with the progress of each shard. */
    PollerSnapshot snapshot(List<PollerSnapshot.ShardProgress> shards) {
        return new PollerSnapshot(invocations(), recordsDelivered(), recordsProcessed(), retries(), batchesDiscarded(),
                recordsDiscarded(), recordsFiltered(), shards);
    }
}
