package io.tally.core;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Every key pattern of the table, in one place. Identifiers are validated by {@link Ids} before they get here,
 * so a {@code #} or {@code :} never reaches a key from user input and prefixes cannot collide.
 *
 * <pre>
 * entity          pk                              sk
 * User            USER#&lt;userId&gt;                   #METADATA#&lt;userId&gt;
 * Post            USER#&lt;userId&gt;                   POST#&lt;postId&gt;#&lt;createdAt&gt;
 * PostRef         POSTREF#&lt;postId&gt;               #POSTREF#
 * Comment         POST#&lt;postId&gt;#&lt;postCreatedAt&gt;  COMMENT#&lt;commentId&gt;#&lt;createdAt&gt;
 * CatalogueItem   ITEM#&lt;itemId&gt;                   #METADATA#
 * UserItem        USER#&lt;userId&gt;                   useritem#&lt;itemId&gt;
 * UserItemEntry   USER#&lt;userId&gt;                   item:assigned:&lt;score, 10 digits&gt;#&lt;itemId&gt;
 *                                                 item:in-progress
 *                                                 item:completed:&lt;completedAt&gt;#&lt;itemId&gt;
 *                                                 item:orphaned:&lt;orphanedAt&gt;#&lt;itemId&gt;
 * derived:
 * UserStats       USER#&lt;userId&gt;                   #STATS#
 * PostProjection  POSTREF#&lt;postId&gt;               #PROJECTION#     (statusShard POSTS#&lt;status&gt;#&lt;k&gt;)
 * SelectorEntry   ITEM#&lt;itemId&gt;                   #SELECTOR#       (selector global-cycle:n, user-cycle:n, back-catalogue:&lt;k&gt;)
 * GlobalStats     GLOBAL#STATS#&lt;k&gt;                #STATS#
 * DeadLetter      DEADLETTER#&lt;yyyy-MM-dd&gt;         &lt;sequence&gt;#&lt;eventId&gt;
 * </pre>
 */
public final class Keys {
    public static final String USER_PREFIX = "USER#";
    public static final String METADATA_PREFIX = "#METADATA#";
    public static final String POST_PREFIX = "POST#";
    public static final String POST_REF_PREFIX = "POSTREF#";
    public static final String POST_REF_SK = "#POSTREF#";
    public static final String COMMENT_PREFIX = "COMMENT#";
    public static final String ITEM_PREFIX = "ITEM#";
    public static final String ITEM_METADATA_SK = "#METADATA#";
    public static final String USER_ITEM_PREFIX = "useritem#";
    public static final String ENTRY_PREFIX = "item:";
    public static final String IN_PROGRESS_SK = "item:in-progress";

    private static final DateTimeFormatter DAY = DateTimeFormatter.ofPattern("uuuu-MM-dd").withZone(ZoneOffset.UTC);

    /** Scores are zero-padded so that the string sort key orders them numerically. */
    private static final int SCORE_DIGITS = 10;

    private Keys() {
    }

    public static Key user(String userId) {
        return new Key(userPk(userId), METADATA_PREFIX + userId);
    }

    public static String userPk(String userId) {
        return USER_PREFIX + userId;
    }

    public static Key post(String userId, String postId, Instant createdAt) {
        return new Key(userPk(userId), postSkPrefix(postId) + Timestamps.format(createdAt));
    }

    /** Prefix that finds one post under its user without knowing its timestamp. */
    public static String postSkPrefix(String postId) {
        return POST_PREFIX + postId + "#";
    }

    /** LSI range value: creation time first so that a user's posts sort by time, the id breaks ties. */
    public static String postedAt(String postId, Instant createdAt) {
        return Timestamps.format(createdAt) + "#" + postId;
    }

    public static Key postRef(String postId) {
        return new Key(POST_REF_PREFIX + postId, POST_REF_SK);
    }

    /** The partition of a post's comments. */
    public static String commentsPk(String postId, Instant postCreatedAt) {
        return POST_PREFIX + postId + "#" + Timestamps.format(postCreatedAt);
    }

    public static Key comment(String postId, Instant postCreatedAt, String commentId, Instant createdAt) {
        return new Key(commentsPk(postId, postCreatedAt), commentSkPrefix(commentId) + Timestamps.format(createdAt));
    }

    public static String commentSkPrefix(String commentId) {
        return COMMENT_PREFIX + commentId + "#";
    }

    public static Key catalogueItem(String itemId) {
        return new Key(ITEM_PREFIX + itemId, ITEM_METADATA_SK);
    }

    public static Key userItem(String userId, String itemId) {
        return new Key(userPk(userId), USER_ITEM_PREFIX + itemId);
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
        return new Key(userPk(userId), sk);
    }

    public static final String STATS_SK = "#STATS#";
    public static final String PROJECTION_SK = "#PROJECTION#";
    public static final String SELECTOR_SK = "#SELECTOR#";
    public static final String GLOBAL_STATS_PREFIX = "GLOBAL#STATS#";
    public static final String STATUS_SHARD_PREFIX = "POSTS#";
    public static final String DEAD_LETTER_PREFIX = "DEADLETTER#";

    public static Key userStats(String userId) {
        return new Key(userPk(userId), STATS_SK);
    }

    /** A post's projection sits beside its PostRef, so it is found by post id alone. */
    public static Key postProjection(String postId) {
        return new Key(POST_REF_PREFIX + postId, PROJECTION_SK);
    }

    public static Key selectorEntry(String itemId) {
        return new Key(ITEM_PREFIX + itemId, SELECTOR_SK);
    }

    /** Each shard in a partition of its own: one partition takes at most 1,000 write units per second. */
    public static Key globalStats(int shard) {
        return new Key(GLOBAL_STATS_PREFIX + shard, STATS_SK);
    }

    /**
     * A stream record the stream processor could not process, filed under the day it was written, in stream
     * order within a shard. The same record always lands on the same key, so filing it again is harmless.
     */
    public static Key deadLetter(Instant writtenAt, String sequence, String eventId) {
        return new Key(DEAD_LETTER_PREFIX + DAY.format(writtenAt), sequence + "#" + eventId);
    }

    /** The status index partition (GSI hash value) of one shard of one status. */
    public static String statusShard(PostStatus status, int shard) {
        return STATUS_SHARD_PREFIX + status.value() + "#" + shard;
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
