package io.tally.stream;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardCursors;
import java.time.Duration;
import java.time.Instant;
import io.tally.stream.engine.SourceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/** The part both handlers share: convert, run the engine, say where the retry must start. */
final class LambdaBatch {
    /** The lease of a batch processed without a Lambda context (tests, tools), as the engine's own default. */
    private static final Duration DEFAULT_LEASE = Duration.ofMinutes(2);

    private LambdaBatch() {
    }

    /**
     * The invocation holds its shard until its deadline: after that Lambda has stopped it, so a crashed invocation
     * never blocks the shard for longer than its timeout.
     */
    static ShardCursors.Lease lease(Context context) {
        String holder = context.getAwsRequestId() != null ? context.getAwsRequestId() : UUID.randomUUID().toString();
        long remaining = Math.max(0, context.getRemainingTimeInMillis());
        return new ShardCursors.Lease(holder, Instant.now().plusMillis(remaining));
    }

    /**
     * How a batch ended: the sequence number to report as the batch item failure (empty when the batch is done), and
     * the shard cursor's claim to hand over to the next invocation (null: none).
     */
    record Outcome(Optional<String> failure, ShardCursors.Handover handover) {
    }

    /**
     * @return the sequence number to report as the batch item failure, or empty when the batch is done
     * @throws IllegalStateException when a record without a sequence number could not be filed as a dead letter:
     *                               the whole batch must be retried, which is safe because every write is
     *                               idempotent
     */
    static Optional<String> process(Engine engine, String shardId, List<DynamodbEvent.DynamodbStreamRecord> records,
                                    Context context) {
        return process(engine, shardId, records, context, ShardCursors.Chain.NONE).failure();
    }

    /**
     * As {@link #process(Engine, String, List, Context)}, with the claim handed over to this invocation and to be
     * handed over by it as {@code chain} says.
     */
    static Outcome process(Engine engine, String shardId, List<DynamodbEvent.DynamodbStreamRecord> records,
                           Context context, ShardCursors.Chain chain) {
        List<SourceRecord> converted = new ArrayList<>(records.size());
        String stopAt = null;
        for (DynamodbEvent.DynamodbStreamRecord record : records) {
            try {
                converted.add(StreamRecords.fromLambda(shardId, record));
                continue;
            } catch (RuntimeException e) {
                String reason = "record could not be converted: " + e.getClass().getSimpleName()
                        + (e.getMessage() == null ? "" : ": " + e.getMessage());
                if (engine.deadLetter(StreamRecords.unconvertible(shardId, record, reason))) {
                    continue;
                }
                String sequence = record.getDynamodb() == null ? null : record.getDynamodb().getSequenceNumber();
                if (sequence == null || sequence.isBlank()) {
                    throw new IllegalStateException("a record without a sequence number could not be filed as a "
                            + "dead letter; retrying the whole batch", e);
                }
                // Nothing after this record may be processed, or the stream would move past a lost dead letter.
                stopAt = sequence;
                break;
            }
        }
        if (converted.isEmpty()) {
            // No record to process (none delivered, or every one filed as a dead letter): no claim of its own.
            return new Outcome(Optional.ofNullable(stopAt), engine.passOn(shardId, chain));
        }
        BatchResult result = engine.process(converted, context == null
                ? new ShardCursors.Lease(UUID.randomUUID().toString(), Instant.now().plus(DEFAULT_LEASE))
                : lease(context), chain);
        // Every converted record precedes stopAt, so a failure the engine reports comes first.
        String unfiled = stopAt;
        return new Outcome(result.failedSequenceNumber().or(() -> Optional.ofNullable(unfiled)),
                result.handover().orElse(null));
    }
}
