package io.tally.stream.rebuild;

import io.tally.core.Key;
import java.util.List;
import java.util.Objects;

/**
 * What a repair did.
 *
 * @param found     the verification before the repair: the differences of the items that had caught up with the
 *                  position, how many had not, and the cascades left undone
 * @param cascaded  base items the repair's cascades removed (the undone cascades of {@code found}); the derived
 *                  items were then recomputed at a position after those removals
 * @param position  the stream position the written items are consistent with
 * @param written   derived items written: set to their content at the position, with the position as their
 *                  watermarks
 * @param refused   derived items not written because a stream processor had meanwhile applied records past the
 *                  position to them; a repair with the stream processor paused fixes them
 * @param uncertain derived items written although a shard the repair did not know (created while it ran) has records
 *                  that change them, which a stream processor may have applied before the write; repair again with
 *                  the stream processor paused
 * @param failed    derived items DynamoDB did not take the repair of (an expression or an item over its limits,
 *                  throttling that outlasted the client's retries), each with the reason; the repair went on with
 *                  the others
 */
public record RepairReport(VerificationReport found, long cascaded, StreamPosition position, long written,
                           List<Key> refused, List<Key> uncertain, List<Failure> failed) {
    public RepairReport {
        Objects.requireNonNull(position, "position");
        refused = List.copyOf(refused);
        uncertain = List.copyOf(uncertain);
        failed = List.copyOf(failed);
    }

    /** A derived item whose repair DynamoDB did not take, and why (its error code and message). */
    public record Failure(Key key, String reason) {
        public Failure {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(reason, "reason");
        }
    }

    /** Whether every derived item is now consistent with the position (and the stream processor can go on). */
    public boolean isComplete() {
        return refused.isEmpty() && uncertain.isEmpty() && failed.isEmpty();
    }

}
