package io.tally.domains.catalogue;

import io.tally.core.Key;
import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.Shards;
import io.tally.core.Timestamps;
import io.tally.core.users.Users;
import java.time.Instant;

/**
 * The key patterns of the learning catalogue (seed 003). A user's items live in the user's partition.
 *
 * <pre>
 * entity          pk                              sk
 * CatalogueItem   ITEM#&lt;itemId&gt;                   #METADATA#
 * UserItem        USER#&lt;userId&gt;                   useritem#&lt;itemId&gt;
 * UserItemEntry   USER#&lt;userId&gt;                   item:assigned:&lt;score, 10 digits&gt;#&lt;itemId&gt;
 *                                                 item:in-progress
 *                                                 item:completed:&lt;completedAt&gt;#&lt;itemId&gt;
 *                                                 item:orphaned:&lt;orphanedAt&gt;#&lt;itemId&gt;
 * derived:
 * SelectorEntry   ITEM#&lt;itemId&gt;                   #SELECTOR#       (selector global-cycle:n, user-cycle:n, back-catalogue:&lt;k&gt;)
 * </pre>
 */
public final class CatalogueKeys {
    public static final String ITEM_PREFIX = "ITEM#";
    public static final String ITEM_METADATA_SK = "#METADATA#";
    public static final String USER_ITEM_PREFIX = "useritem#";
    public static final String ENTRY_PREFIX = "item:";
    public static final String IN_PROGRESS_SK = "item:in-progress";
    public static final String SELECTOR_SK = "#SELECTOR#";

    /** Scores are zero-padded so that the string sort key orders them numerically. */
    private static final int SCORE_DIGITS = 10;

    /** Partitions the back-catalogue selector is spread over ({@code back-catalogue:<k>}). */
    public static final ShardSetting SELECTOR_SHARDS = new ShardSetting("SELECTOR_SHARDS", ShardSettings.DEFAULT,
            "Partitions the back-catalogue selector is spread over");

    private CatalogueKeys() {
    }

    public static Key catalogueItem(String itemId) {
        return new Key(ITEM_PREFIX + itemId, ITEM_METADATA_SK);
    }

    public static Key userItem(String userId, String itemId) {
        return new Key(Users.pk(userId), USER_ITEM_PREFIX + itemId);
    }

    /** Sort key prefix of one of a user's lists: {@code item:assigned:}, {@code item:in-progress}, ... */
    public static String entryPrefix(ItemState state) {
        return state == ItemState.IN_PROGRESS ? IN_PROGRESS_SK : ENTRY_PREFIX + state.value() + ":";
    }

    /**
     * The list entry of a user item in its current state. The item id suffix keeps two items with the same
     * score or timestamp apart; the in-progress entry is a single key so that "one at a time" is a condition.
     */
    public static Key entry(String userId, ItemState state, String itemId, long score, Instant enteredAt) {
        String sk = switch (state) {
            case ASSIGNED -> entryPrefix(state) + paddedScore(score) + "#" + itemId;
            case IN_PROGRESS -> IN_PROGRESS_SK;
            case COMPLETED, ORPHANED -> entryPrefix(state) + Timestamps.format(enteredAt) + "#" + itemId;
        };
        return new Key(Users.pk(userId), sk);
    }

    public static Key selectorEntry(String itemId) {
        return new Key(ITEM_PREFIX + itemId, SELECTOR_SK);
    }

    /**
     * The CycleSelector partition of an item's selector: cycles are one partition each, the back catalogue is
     * spread over {@code backCatalogueShards} partitions.
     */
    public static String selectorPartition(String selector, String itemId, int backCatalogueShards) {
        return Selectors.BACK_CATALOGUE.equals(selector)
                ? backCatalogueShard(Shards.of(itemId, backCatalogueShards))
                : selector;
    }

    /** One CycleSelector partition of the back catalogue. */
    public static String backCatalogueShard(int shard) {
        return Selectors.BACK_CATALOGUE + ":" + shard;
    }

    static String paddedScore(long score) {
        if (score < 0 || score >= 10_000_000_000L) {
            throw new IllegalArgumentException("score out of range: " + score);
        }
        String digits = Long.toString(score);
        return "0".repeat(SCORE_DIGITS - digits.length()) + digits;
    }
}
