package io.tally.stream.engine;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Shard cursors in memory, with the semantics of {@link DynamoDbShardCursors}. For tests and tools. */
public final class InMemoryShardCursors implements ShardCursors {
    /** {@code claim}: the marks of the claim in force (null when released). */
    private record Cursor(Progress progress, String holder, Instant leaseUntil, ClaimMarks claim) {
    }

    private final Map<String, Cursor> cursors = new HashMap<>();
    /** By shard, its lineage once settled; as {@link io.tally.core.ShardCursorItem#LINEAGE}. */
    private final Map<String, String> lineages = new HashMap<>();

    @Override
    public synchronized String lineage(String shardId, ShardParents parents) {
        String settled = settled(shardId);
        if (settled != null) {
            return settled;
        }
        String inherited = parents.soleParent(shardId).map(this::settled).orElse(null);
        // As DynamoDB's condition: a cursor claimed meanwhile by an engine before lineages keeps the shard's own id.
        String meanwhile = settled(shardId);
        if (meanwhile != null) {
            return meanwhile;
        }
        String lineage = inherited != null ? inherited : shardId;
        lineages.put(shardId, lineage);
        return lineage;
    }

    /** As {@link io.tally.core.ShardCursorItem#lineageOf}: a cursor claimed before lineages were settled is its own. */
    private String settled(String shardId) {
        String lineage = lineages.get(shardId);
        return lineage != null ? lineage : cursors.containsKey(shardId) ? shardId : null;
    }

    @Override
    public synchronized Claim claim(String shardId, String firstSequence, String lastSequence, Lease lease,
                                    Chain chain, Instant now) {
        Cursor cursor = cursors.getOrDefault(shardId, new Cursor(Progress.NONE, null, null, null));
        ClaimMarks marks = new ClaimMarks(firstSequence, chain.handsOver() ? lastSequence : null);
        Handover received = chain.received();
        if (received != null) {
            Pending pending = received.progress().pending();
            if (pending != null && pending.sequence().compareTo(firstSequence) < 0) {
                return new PastFailure(pending);
            }
            if (received.holder().equals(cursor.holder()) && cursor.claim() != null
                    && received.from().equals(cursor.claim().from())) {
                cursors.put(shardId, new Cursor(received.progress(), lease.holder(), lease.until(), marks));
                return new Granted(received.progress());
            }
        }
        if (!admits(cursor, firstSequence, lease, now) && cursor.holder() != null
                && !cursor.holder().equals(lease.holder()) && cursor.leaseUntil().isBefore(now)
                && cursor.claim().takenOver(firstSequence)) {
            // As DynamoDB's: a claim the condition refuses, lapsed and taken over, is released on its holder's behalf,
            // its batch taken as completed.
            cursor = new Cursor(cursor.progress().takenOver(cursor.claim(), firstSequence), null, null, null);
            cursors.put(shardId, cursor);
        }
        Pending pending = cursor.progress().pending();
        boolean covered = cursor.holder() != null && cursor.claim().covers(pending, firstSequence);
        if (pending != null && pending.sequence().compareTo(firstSequence) < 0 && !covered) {
            return new PastFailure(pending);
        }
        Progress before = cursor.progress();
        if (cursor.holder() != null && !cursor.holder().equals(lease.holder())) {
            if (!cursor.leaseUntil().isBefore(now)) {
                return new Held(cursor.holder(), cursor.leaseUntil());
            }
            before = cursor.progress().withAbandonedClaim(cursor.claim().from());
            Pending abandoned = before.pending();
            if (abandoned != null && abandoned.sequence().compareTo(firstSequence) < 0) {
                return new PastFailure(abandoned);
            }
        }
        boolean retryOfAbandoned = cursor.holder() != null && !cursor.holder().equals(lease.holder())
                && cursor.progress().unfinished(cursor.claim().from());
        cursors.put(shardId, new Cursor(cursor.progress(), lease.holder(), lease.until(),
                retryOfAbandoned ? new ClaimMarks(firstSequence, null) : marks));
        return new Granted(before, !(retryOfAbandoned && chain.handsOver()));
    }

    /** DynamoDB's claim condition ({@link DynamoDbShardCursors}). */
    private static boolean admits(Cursor cursor, String first, Lease lease, Instant now) {
        Pending pending = cursor.progress().pending();
        if (pending != null && pending.sequence().compareTo(first) < 0) {
            return false;
        }
        if (cursor.holder() == null || cursor.holder().equals(lease.holder())) {
            return true;
        }
        String acknowledged = cursor.progress().acknowledged();
        return cursor.leaseUntil().isBefore(now) && (cursor.claim().from().compareTo(first) >= 0
                || acknowledged != null && cursor.claim().from().compareTo(acknowledged) <= 0
                || pending != null && cursor.claim().from().compareTo(pending.sequence()) < 0);
    }

    @Override
    public synchronized boolean release(String shardId, Lease lease, Progress progress, Instant now) {
        Cursor cursor = cursors.get(shardId);
        if (cursor == null || !lease.holder().equals(cursor.holder())) {
            // As DynamoDB's: a repeated release of ours finds its own progress, and no claim in force.
            return cursor != null && cursor.holder() == null && cursor.progress().equals(progress);
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
