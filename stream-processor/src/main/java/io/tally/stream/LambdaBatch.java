package io.tally.stream;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The part both handlers share: convert, run the engine, say where the retry must start. */
final class LambdaBatch {
    private LambdaBatch() {
    }

    /**
     * @return the sequence number to report as the batch item failure, or empty when the batch is done
     * @throws IllegalStateException when a record without a sequence number could not be filed as a dead letter:
     *                               the whole batch must be retried, which is safe because every write is
     *                               idempotent
     */
    static Optional<String> process(Engine engine, String shardId, List<DynamodbEvent.DynamodbStreamRecord> records) {
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
        BatchResult result = engine.process(converted);
        // Every converted record precedes stopAt, so a failure the engine reports comes first.
        String unfiled = stopAt;
        return result.failedSequenceNumber().or(() -> Optional.ofNullable(unfiled));
    }
}
