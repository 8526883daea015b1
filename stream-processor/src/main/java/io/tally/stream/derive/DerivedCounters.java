package io.tally.stream.derive;

import io.tally.core.EntityType;
import io.tally.core.Shards;
import io.tally.core.blog.Blog;
import io.tally.core.blog.BlogKeys;
import io.tally.core.domains.Domains;

/** The counters of the derived items, addressed the same way by every derivation. */
final class DerivedCounters {
    private DerivedCounters() {
    }

    static CounterRef userStats(String userId, String attribute) {
        return new CounterRef(BlogKeys.userStats(userId), Domains.USER_STATS, attribute);
    }

    static CounterRef postProjection(String postId, String attribute) {
        return new CounterRef(BlogKeys.postProjection(postId), Blog.POST_PROJECTION, attribute);
    }

    /**
     * A counter of the global totals on the shard of {@code subject}: the subject is the base item's own id, so an
     * item always counts on the same shard and a later change of it cancels on the shard it was counted on.
     */
    static CounterRef globalStats(String subject, int globalShards, String attribute) {
        return new CounterRef(Domains.globalStatsKey(Shards.of(subject, globalShards)), Domains.GLOBAL_STATS, attribute);
    }

    static int requireShards(int count, String name) {
        if (count < 1) {
            throw new IllegalArgumentException(name + " must be at least 1: " + count);
        }
        return count;
    }
}
