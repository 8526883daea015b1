package io.tally.stream.stats;

import io.tally.core.domains.Domains;
import io.tally.core.derive.CounterRef;

/** The counters of the two derived items every domain shares, addressed the same way by every derivation. */
public final class SharedStats {
    private SharedStats() {
    }

    /** A counter of a user's stats item ({@code USER#<userId> / #STATS#}). */
    public static CounterRef user(String userId, String attribute) {
        return CounterRef.of(Domains.USER_STATS, userId, attribute);
    }

    /**
     * A counter of the global totals. They are slotted: the engine adds the change to the slot of the stream shard
     * the record came from ({@link io.tally.core.derive.Derivations#place}); the derivation names slot 0.
     */
    public static CounterRef global(String attribute) {
        return new CounterRef(Domains.GLOBAL_STATS.slotKey(0), Domains.GLOBAL_STATS, attribute);
    }
}
