package io.tally.core;

import java.util.List;

/**
 * Attribute names of the derived items (written by the stream processor, read by the read side). Their keys
 * are in {@link Keys}; every derived item also carries {@link TableSchema#ENTITY_TYPE} and
 * {@link TableSchema#WATERMARKS}.
 */
public final class DerivedSchema {
    private DerivedSchema() {
    }

    /** {@code USER#<userId> / #STATS#}: one per user. */
    public static final class UserStats {
        public static final String USER_ID = "userId";
        public static final String POSTS = "posts";
        public static final String COMMENTS = "comments";
        public static final String COMPLETED = "completed";
        public static final String CORRECT_GUESSES = "correctGuesses";
        public static final String LIVE_COMPLETED = "liveCompleted";
        public static final String ASSIGNED = "assigned";
        public static final String IN_PROGRESS = "inProgress";
        public static final String ORPHANED = "orphaned";
        /** The counters in the order of {@code GET /stats/users/{userId}}. */
        public static final List<String> COUNTERS =
                List.of(POSTS, COMMENTS, COMPLETED, CORRECT_GUESSES, LIVE_COMPLETED, ASSIGNED, IN_PROGRESS, ORPHANED);

        private UserStats() {
        }
    }

    /** {@code POSTREF#<postId> / #PROJECTION#}: one per post, in the status index. */
    public static final class PostProjection {
        public static final String POST_ID = "postId";
        public static final String USER_ID = "userId";
        public static final String TITLE = "title";
        public static final String STATUS = "status";
        public static final String CREATED_AT = "createdAt";
        public static final String UPDATED_AT = "updatedAt";
        /** Counter: the post's existing comments. */
        public static final String COMMENTS = "comments";
        /** The document part, owned by the post: everything but {@link #COMMENTS}. */
        public static final List<String> DOCUMENT = List.of(POST_ID, USER_ID, TITLE, STATUS, CREATED_AT, UPDATED_AT,
                TableSchema.STATUS_SHARD, TableSchema.STATUS_POSTED_AT);

        private PostProjection() {
        }
    }

    /** {@code ITEM#<itemId> / #SELECTOR#}: one per catalogue item, in the CycleSelector index. */
    public static final class SelectorEntry {
        public static final String ITEM_ID = "itemId";
        public static final String TITLE = "title";
        public static final String SCORE = "score";
        public static final List<String> DOCUMENT = List.of(ITEM_ID, TITLE, SCORE, TableSchema.SELECTOR, TableSchema.DATA);

        private SelectorEntry() {
        }
    }

    /** {@code GLOBAL#STATS#<k> / #STATS#}: shard k of the application-wide totals; readers sum the shards. */
    public static final class GlobalStats {
        public static final String USERS = "users";
        public static final String POSTS_CREATED = "postsCreated";
        public static final String POSTS_UPDATED = "postsUpdated";
        public static final String POSTS_DELETED = "postsDeleted";
        public static final String COMMENTS = "comments";
        public static final String ITEMS = "items";
        public static final String COMPLETED = "completed";
        public static final List<String> COUNTERS =
                List.of(USERS, POSTS_CREATED, POSTS_UPDATED, POSTS_DELETED, COMMENTS, ITEMS, COMPLETED);

        private GlobalStats() {
        }
    }
}
