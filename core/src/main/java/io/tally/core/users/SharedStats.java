package io.tally.core.users;

import io.tally.core.SharedCounter;
import io.tally.core.derive.CounterRef;

/** The counters of the two derived items every domain shares, addressed the same way by every derivation. */
public final class SharedStats {
    private SharedStats() {
    }

    /** A counter of a user's stats item ({@code USER#<userId> / #STATS#}). */
    public static CounterRef user(String userId, SharedCounter counter) {
        return CounterRef.of(Users.USER_STATS, userId, shared(counter, Users.USER_STATS));
    }

    /**
     * A counter of the global totals. They are slotted: the engine adds the change to the slot of the stream shard
     * the record came from ({@link io.tally.core.domain.Derivations#place}); the derivation names slot 0.
     */
    public static CounterRef global(SharedCounter counter) {
        return new CounterRef(Users.GLOBAL_STATS.slotKey(0), Users.GLOBAL_STATS, shared(counter, Users.GLOBAL_STATS));
    }

    private static String shared(SharedCounter counter, io.tally.core.DerivedType type) {
        if (counter.type() != type) {
            throw new IllegalArgumentException("'" + counter.attribute() + "' is a counter of " + counter.type()
                    + ", not of " + type);
        }
        return counter.attribute();
    }
}
