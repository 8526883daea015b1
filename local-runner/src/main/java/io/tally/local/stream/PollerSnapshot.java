package io.tally.local.stream;

import java.time.Duration;
import java.util.List;

/**
 * The poller's progress at one moment.
 *
 * @param invocations      invocations of the function (batches), retries included
 * @param recordsDelivered records handed to the function, each time it got them (retries count again)
 * @param recordsProcessed records the function processed successfully
 * @param retries          invocations that retried records after a failure
 * @param batchesDiscarded batches sent to the on-failure destination
 * @param recordsDiscarded records sent to the on-failure destination
 * @param recordsFiltered  records the event source mapping's filter passed over ({@code FilterCriteria}): read from
 *                         the stream, never delivered
 * @param shards           every shard known, in the order they were discovered
 */
public record PollerSnapshot(
        long invocations,
        long recordsDelivered,
        long recordsProcessed,
        long retries,
        long batchesDiscarded,
        long recordsDiscarded,
        long recordsFiltered,
        List<ShardProgress> shards) {

    public PollerSnapshot {
        shards = List.copyOf(shards);
    }

    public enum ShardStatus {
        /** Its parent shard still has records to process. */
        WAITING_FOR_PARENT,
        PROCESSING,
        /** Closed, and every record processed. */
        DONE
    }

    /**
     * @param shardId       the shard
     * @param parentShardId its parent; null if none
     * @param status        where it is
     * @param checkpoint    the sequence number of the last record processed; null if none yet
     * @param lag           how long the oldest record the shard's worker has read but not yet processed has waited
     *                      since the poller read it (zero when none waits), so it grows while a batch keeps failing.
     *                      Measured from the poller's own clock, not from the record's ApproximateCreationDateTime,
     *                      which DynamoDB Local rounds down to the minute; the time from the write to the read (at
     *                      most one poll interval while the worker is idle) is not in it
     */
    public record ShardProgress(String shardId, String parentShardId, ShardStatus status, String checkpoint,
            Duration lag) {
    }
}
