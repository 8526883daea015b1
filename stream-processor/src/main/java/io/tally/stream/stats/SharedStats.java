package io.tally.stream.stats;

import io.tally.core.Shards;
import io.tally.core.domains.Domains;
import io.tally.stream.derive.CounterRef;

/** The counters of the two derived items every domain shares, addressed the same way by every derivation. */
public final class SharedStats {
    private SharedStats() {
    }

    /** A counter of a user's stats item ({@code USER#<userId> / #STATS#}). */
    public static CounterRef user(String userId, String attribute) {
        return CounterRef.of(Domains.USER_STATS, userId, attribute);
    }

    /**
     * A counter of the global totals on the shard of {@code subject}: the subject is the base item's own id, so an
     * item always counts on the same shard and a later change of it cancels on the shard it was counted on.
     */
    public static CounterRef global(String subject, int globalShards, String attribute) {
        return new CounterRef(Domains.globalStatsKey(Shards.of(subject, globalShards)), Domains.GLOBAL_STATS, attribute);
    }
}
