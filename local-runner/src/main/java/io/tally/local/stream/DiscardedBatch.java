package io.tally.local.stream;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Records the poller gave up on, with what AWS tells an on-failure destination about them.
 *
 * @param condition              why they were given up on
 * @param approximateInvokeCount how many invocations included them (0 when they expired before any)
 * @param functionArn            the function that was (or would have been) invoked
 * @param streamArn              the stream they come from
 * @param shardId                their shard
 * @param records                the records themselves, in stream order, never empty; AWS sends only their
 *                               coordinates, locally they are kept
 * @param timestamp              when they were given up on
 * @param functionError          {@code "Unhandled"} when the last invocation threw, else null (AWS's
 *                               {@code responseContext.functionError})
 * @param errorMessage           what the last invocation threw or why its response counted as a failure; null if
 *                               none (a local addition)
 */
public record DiscardedBatch(
        Condition condition,
        int approximateInvokeCount,
        String functionArn,
        String streamArn,
        String shardId,
        List<Record> records,
        Instant timestamp,
        String functionError,
        String errorMessage) {

    /** AWS's {@code requestContext.condition}. */
    public enum Condition {
        RETRY_ATTEMPTS_EXHAUSTED("RetryAttemptsExhausted"),
        RECORD_AGE_EXCEEDED("RecordAgeExceeded");

        private final String awsName;

        Condition(String awsName) {
            this.awsName = awsName;
        }

        /** The value AWS writes, e.g. {@code RetryAttemptsExhausted}. */
        public String awsName() {
            return awsName;
        }
    }

    public DiscardedBatch {
        Objects.requireNonNull(condition, "condition");
        Objects.requireNonNull(streamArn, "streamArn");
        Objects.requireNonNull(shardId, "shardId");
        Objects.requireNonNull(timestamp, "timestamp");
        records = List.copyOf(records);
        if (records.isEmpty()) {
            throw new IllegalArgumentException("a discarded batch has at least one record");
        }
    }

    public String startSequenceNumber() {
        return records.get(0).dynamodb().sequenceNumber();
    }

    public String endSequenceNumber() {
        return records.get(records.size() - 1).dynamodb().sequenceNumber();
    }

    public Instant approximateArrivalOfFirstRecord() {
        return records.get(0).dynamodb().approximateCreationDateTime();
    }

    public Instant approximateArrivalOfLastRecord() {
        return records.get(records.size() - 1).dynamodb().approximateCreationDateTime();
    }

    public int batchSize() {
        return records.size();
    }
}
