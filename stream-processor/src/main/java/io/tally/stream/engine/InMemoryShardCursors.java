package io.tally.stream.engine;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Shard cursors in memory, with the semantics of {@link DynamoDbShardCursors}. For tests and tools. */
public final class InMemoryShardCursors implements ShardCursors {
    /** {@code from}: the first record of the claim in force (null when released). */
    private record Cursor(Progress progress, String holder, Instant leaseUntil, String from) {
    }

    private final Map<String, Cursor> cursors = new HashMap<>();

    @Override
    public synchronized Claim claim(String shardId, String firstSequence, Lease lease, Instant now) {
        Cursor cursor = cursors.getOrDefault(shardId, new Cursor(Progress.NONE, null, null, null));
        Pending pending = cursor.progress().pending();
        if (pending != null && pending.sequence().compareTo(firstSequence) < 0) {
            return new PastFailure(pending);
        }
        Pending abandoned = null;
        if (cursor.holder() != null && !cursor.holder().equals(lease.holder())) {
            if (!cursor.leaseUntil().isBefore(now)) {
                return new Held(cursor.holder(), cursor.leaseUntil());
            }
            abandoned = cursor.progress().abandonedClaim(cursor.from());
            if (abandoned != null && abandoned.sequence().compareTo(firstSequence) < 0) {
                return new PastFailure(abandoned);
            }
        }
        cursors.put(shardId, new Cursor(cursor.progress(), lease.holder(), lease.until(), firstSequence));
        return new Granted(abandoned == null ? cursor.progress() : cursor.progress().withAbandonedClaim(cursor.from()));
    }

    @Override
    public synchronized boolean release(String shardId, Lease lease, Progress progress, Instant now) {
        Cursor cursor = cursors.get(shardId);
        if (cursor == null || !lease.holder().equals(cursor.holder())) {
            // As DynamoDB's: a repeated release of ours finds its own progress.
            return cursor != null && cursor.progress().equals(progress);
        }
        cursors.put(shardId, new Cursor(progress, null, null, null));
        return true;
    }

    /** What the cursor of a shard records ({@link Progress#NONE} for a shard it does not know). */
    public synchronized Progress progress(String shardId) {
        Cursor cursor = cursors.get(shardId);
        return cursor == null ? Progress.NONE : cursor.progress();
    }

    /** The pending record of a shard, or null. */
    public synchronized Pending pending(String shardId) {
        Cursor cursor = cursors.get(shardId);
        return cursor == null ? null : cursor.progress().pending();
    }
}
