package io.tally.domains.blog;

import io.tally.core.Key;
import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.TableSchema;
import io.tally.core.Timestamps;
import io.tally.core.domain.TableIndex;
import io.tally.core.users.Users;
import java.time.Instant;

/**
 * The key patterns of the blog (seeds 000/001); a user's own keys are the kernel's ({@link Users}). Identifiers are
 * validated by {@link io.tally.core.Ids} before they get here, so a {@code #} never reaches a key from user input and
 * prefixes cannot collide.
 *
 * <pre>
 * entity          pk                              sk
 * Post            USER#&lt;userId&gt;                   POST#&lt;postId&gt;#&lt;createdAt&gt;
 * PostRef         POSTREF#&lt;postId&gt;               #POSTREF#
 * Comment         POST#&lt;postId&gt;#&lt;postCreatedAt&gt;  COMMENT#&lt;commentId&gt;#&lt;createdAt&gt;
 * derived:
 * PostProjection  POSTREF#&lt;postId&gt;               #PROJECTION#     (statusShard POSTS#&lt;status&gt;#&lt;k&gt;)
 * </pre>
 */
public final class BlogKeys {
    public static final String POST_PREFIX = "POST#";
    public static final String POST_REF_PREFIX = "POSTREF#";
    public static final String POST_REF_SK = "#POSTREF#";
    public static final String COMMENT_PREFIX = "COMMENT#";
    public static final String PROJECTION_SK = "#PROJECTION#";
    public static final String STATUS_SHARD_PREFIX = "POSTS#";

    /**
     * Sparse LSI over a user's partition ordering the user's posts by creation time. Post ids may be chosen by the
     * client, so the base sort key {@code POST#<postId>#<timestamp>} orders by id, not by time.
     */
    public static final String POSTS_BY_TIME_INDEX = "PostsByTime";
    public static final String POSTED_AT = "postedAt";
    /**
     * GSI of the status index: post projections in status partitions sharded over K keys
     * ({@code POSTS#<status>#<shard>}), ranged by {@link #STATUS_POSTED_AT} so that a partition reads newest first.
     */
    public static final String POSTS_BY_STATUS_INDEX = "PostsByStatus";
    public static final String STATUS_SHARD = "statusShard";
    /**
     * The projection's range key in {@link #POSTS_BY_STATUS_INDEX}, {@code <createdAt>#<postId>} like
     * {@link #POSTED_AT}, under a name of its own: a projection carrying {@code postedAt} would also be an entry of the
     * {@link #POSTS_BY_TIME_INDEX} LSI, which no query reads, and every projection write would pay a write unit for it.
     */
    public static final String STATUS_POSTED_AT = "statusPostedAt";

    /** Partitions each post status of the status index is spread over ({@code POSTS#<status>#<shard>}). */
    public static final ShardSetting STATUS_SHARDS = new ShardSetting("STATUS_SHARDS", ShardSettings.DEFAULT,
            "Partitions each post status of the status index is spread over");

    static final TableIndex POSTS_BY_TIME = TableIndex.local(POSTS_BY_TIME_INDEX, POSTED_AT)
            .described("A user's posts newest first, whatever their post ids.");
    static final TableIndex POSTS_BY_STATUS = TableIndex.global(POSTS_BY_STATUS_INDEX, STATUS_SHARD, STATUS_POSTED_AT)
            .including(TableSchema.ENTITY_TYPE, "postId", "userId", "title", "status", "createdAt", "updatedAt")
            .described("Post projections by status shard, newest first (the home tab). Its range key is not"
                    + " postedAt, so that the projections stay out of the PostsByTime LSI. Projects the post's fields"
                    + " only: neither the engine's bookkeeping nor the comments counter, which every comment moves;"
                    + " the list reads the counts from the table with one BatchGetItem per page.");

    private BlogKeys() {
    }

    public static Key post(String userId, String postId, Instant createdAt) {
        return new Key(Users.pk(userId), postSkPrefix(postId) + Timestamps.format(createdAt));
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

    /** A post's projection sits beside its PostRef, so it is found by post id alone. */
    public static Key postProjection(String postId) {
        return new Key(POST_REF_PREFIX + postId, PROJECTION_SK);
    }

    /** The status index partition (GSI hash value) of one shard of one status. */
    public static String statusShard(PostStatus status, int shard) {
        return STATUS_SHARD_PREFIX + status.value() + "#" + shard;
    }
}
