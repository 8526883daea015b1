package io.tally.stream.derive;

import io.tally.core.EntityType;
import io.tally.core.Keys;
import io.tally.core.Shards;

/** The counters of the derived items, addressed the same way by every derivation. */
final class DerivedCounters {
    private DerivedCounters() {
    }

    static CounterRef userStats(String userId, String attribute) {
        return new CounterRef(Keys.userStats(userId), EntityType.USER_STATS, attribute);
    }

    static CounterRef postProjection(String postId, String attribute) {
        return new CounterRef(Keys.postProjection(postId), EntityType.POST_PROJECTION, attribute);
    }

    /**
     * A counter of the global totals on the shard of {@code subject}: the subject is the base item's own id, so an
     * item always counts on the same shard and a later change of it cancels on the shard it was counted on.
     */
    static CounterRef globalStats(String subject, int globalShards, String attribute) {
        return new CounterRef(Keys.globalStats(Shards.of(subject, globalShards)), EntityType.GLOBAL_STATS, attribute);
    }

    static int requireShards(int count, String name) {
        if (count < 1) {
            throw new IllegalArgumentException(name + " must be at least 1: " + count);
        }
        return count;
    }
}
