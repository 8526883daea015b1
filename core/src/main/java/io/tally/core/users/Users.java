package io.tally.core.users;

import io.tally.core.DerivedType;
import io.tally.core.EntityType;
import io.tally.core.Key;
import io.tally.core.SharedCounter;

/**
 * The shared kernel every domain builds on: users, and the two derived items every domain counts in, a user's stats
 * item and the application-wide totals. Their counters are the domains' ({@link SharedCounter}); their keys are here.
 *
 * <pre>
 * entity          pk                        sk
 * User            USER#&lt;userId&gt;             #METADATA#&lt;userId&gt;
 * derived:
 * UserStats       USER#&lt;userId&gt;             #STATS#          (a user's totals, counted by every domain)
 * GlobalStats     GLOBAL#STATS#&lt;k&gt;          #STATS#          (the totals, in K slots)
 * </pre>
 */
public final class Users {
    public static final String PREFIX = "USER#";
    public static final String METADATA_PREFIX = "#METADATA#";
    public static final String STATS_SK = "#STATS#";
    public static final String GLOBAL_STATS_PREFIX = "GLOBAL#STATS#";

    public static final EntityType USER = EntityType.base("User");

    /** The owner's part of a user's stats item: present as soon as the user exists. */
    public static final String USER_STATS_USER_ID = "userId";

    /** One per user ({@code stats} item of seed 003): the user's totals, counted by every domain. */
    public static final DerivedType USER_STATS = DerivedType.named("UserStats")
            .key("USER#<userId> / #STATS#", Users::statsKey)
            .openCounters()
            .shared()
            .document(USER_STATS_USER_ID)
            .build();

    /**
     * The application-wide totals, as partial sums in K slots, each in a partition of its own: the stream engine adds
     * a change to the slot of the stream shard it came from, readers sum the slots.
     */
    public static final DerivedType GLOBAL_STATS = DerivedType.named("GlobalStats")
            .key("GLOBAL#STATS#<k> / #STATS#", Users::globalStatsKey)
            .openCounters()
            .slotted()
            .build();

    /** The global totals' count of users, the first figure of {@code GET /stats/global}. */
    public static final SharedCounter GLOBAL_USERS = SharedCounter.of(GLOBAL_STATS, "users");

    private Users() {
    }

    /** A user's item. */
    public static Key key(String userId) {
        return new Key(pk(userId), METADATA_PREFIX + userId);
    }

    /** A user's partition: the user's item, stats item, and whatever a domain keeps under the user. */
    public static String pk(String userId) {
        return PREFIX + userId;
    }

    /** A user's stats item sits in the user's partition. */
    public static Key statsKey(String userId) {
        return new Key(pk(userId), STATS_SK);
    }

    /** The key of slot {@code k} of the global totals. */
    public static Key globalStatsKey(int slot) {
        return new Key(GLOBAL_STATS_PREFIX + slot, STATS_SK);
    }

    private static Key globalStatsKey(String slot) {
        return slot.equals(DerivedType.ALL_SLOTS) ? new Key(GLOBAL_STATS_PREFIX + slot, STATS_SK)
                : globalStatsKey(Integer.parseInt(slot));
    }
}
