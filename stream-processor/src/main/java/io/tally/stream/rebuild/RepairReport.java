package io.tally.stream.rebuild;

import io.tally.core.Key;
import java.util.List;

/**
 * What a repair did.
 *
 * @param found     the verification before the repair: the differences of the items that had caught up with the
 *                  position, and how many had not
 * @param written   derived items written: set to their content at the position, with the position as their
 *                  watermarks
 * @param refused   derived items not written because a stream processor had meanwhile applied records past the
 *                  position to them; a repair with the stream processor paused fixes them
 * @param uncertain derived items written although a shard the repair did not know (created while it ran) has records
 *                  that change them, which a stream processor may have applied before the write; repair again with
 *                  the stream processor paused
 */
public record RepairReport(VerificationReport found, long written, List<Key> refused, List<Key> uncertain) {
    public RepairReport {
        refused = List.copyOf(refused);
        uncertain = List.copyOf(uncertain);
    }

    /** Whether every derived item is now consistent with the position (and the stream processor can go on). */
    public boolean isComplete() {
        return refused.isEmpty() && uncertain.isEmpty();
    }

    public StreamPosition position() {
        return found.position();
    }
}
