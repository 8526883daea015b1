package io.tally.stream.engine;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * When the engine stops retrying a record that keeps failing and files it as a dead letter instead, so that one
 * record cannot hold its shard until the stream's retention trims it: once the record has been the shard's pending
 * record for {@code attempts} failed batches in a row (this one included), over at least {@code after} since the
 * first of them. The attempts are counted by the shard cursor ({@link ShardCursors.Pending}).
 */
record GiveUp(int attempts, Duration after) {
    GiveUp {
        if (attempts < 1) {
            throw new IllegalArgumentException("attempts must be at least 1: " + attempts);
        }
        Objects.requireNonNull(after, "after");
        if (after.isNegative()) {
            throw new IllegalArgumentException("the give-up period must not be negative: " + after);
        }
    }

    /** This batch's attempt at {@code sequence}: 1 when the shard's pending record is another one (or none). */
    static int attempt(ShardCursors.Pending previous, String sequence) {
        return ShardCursors.Pending.attemptsAt(previous, sequence) + 1;
    }

    /** Whether this batch, failing again at {@code sequence}, is the one that gives the record up. */
    boolean reached(ShardCursors.Pending previous, String sequence, Instant now) {
        int before = ShardCursors.Pending.attemptsAt(previous, sequence);
        Instant since = before > 0 && previous.since() != null ? previous.since() : now;
        return before + 1 >= attempts && !now.isBefore(since.plus(after));
    }
}
