package io.tally.stream.derive;

import java.util.List;

/** The detail types of Tally's domain events; each detail is documented in {@code docs/events.md}. */
public final class DetailTypes {
    public static final String POST_CREATED = "PostCreated";
    public static final String POST_STATUS_CHANGED = "PostStatusChanged";
    public static final String COMMENT_ADDED = "CommentAdded";
    public static final String COMMENT_DELETED = "CommentDeleted";
    public static final String ITEM_COMPLETED = "ItemCompleted";
    public static final String USER_STATS_CHANGED = "UserStatsChanged";

    public static final List<String> ALL = List.of(POST_CREATED, POST_STATUS_CHANGED, COMMENT_ADDED, COMMENT_DELETED,
            ITEM_COMPLETED, USER_STATS_CHANGED);

    private DetailTypes() {
    }
}
