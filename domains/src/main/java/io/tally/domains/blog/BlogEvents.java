package io.tally.domains.blog;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.events.EventType;
import java.time.Instant;

/**
 * The blog's events, which the changes of posts and comments announce ({@link Blog} declares when): {@code PostCreated}
 * when a post appears, {@code PostStatusChanged} when its status changes (a hard delete announces nothing: the API only
 * soft-deletes, which is a status change); {@code CommentAdded} when a comment appears, {@code CommentDeleted} when it
 * goes (comments are never modified).
 */
public final class BlogEvents {
    public static final EventType POST_CREATED = EventType.publicEvent("PostCreated", PostCreated.class);
    public static final EventType POST_STATUS_CHANGED = EventType.publicEvent("PostStatusChanged",
            PostStatusChanged.class);
    /** Public as {@code /posts} shows comments: that a post has them, not who wrote them. */
    public static final EventType COMMENT_ADDED = EventType.publicEvent("CommentAdded", CommentChanged.class,
            "authorId");
    public static final EventType COMMENT_DELETED = EventType.publicEvent("CommentDeleted", CommentChanged.class,
            "authorId");

    /** The detail of {@code PostCreated}. */
    public record PostCreated(String eventId, String postId, String userId, String title, PostStatus status,
                              Instant createdAt) {
        static PostCreated of(String eventId, Post post) {
            return new PostCreated(eventId, post.postId(), post.userId(), post.title(), post.status(),
                    post.createdAt());
        }
    }

    /**
     * The detail of {@code PostStatusChanged}, with the post's title after the change, so that a subscriber can name
     * the post (e.g. "your post ... was deleted") without reading it.
     */
    public record PostStatusChanged(String eventId, String postId, String userId, PostStatus from, PostStatus to,
                                    Instant updatedAt, String title) {
        /** When a post's status changes; none for any other change. */
        static PostStatusChanged of(String eventId, Post before, Post after) {
            return before == null || after == null || before.status() == after.status() ? null
                    : new PostStatusChanged(eventId, after.postId(), after.userId(), before.status(), after.status(),
                            after.updatedAt(), after.title());
        }
    }

    /**
     * The detail of {@code CommentAdded} and {@code CommentDeleted}, with the post's author, whom a subscriber
     * typically notifies, without a read of the post.
     *
     * @param createdAt when the comment was written: in {@code CommentAdded} only
     */
    @JsonPropertyOrder({"eventId", "commentId", "postId", "authorId", "createdAt", "postUserId"})
    public record CommentChanged(String eventId, String commentId, String postId, String authorId,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) Instant createdAt, String postUserId) {
        static CommentChanged added(String eventId, Comment comment) {
            return new CommentChanged(eventId, comment.commentId(), comment.postId(), comment.authorId(),
                    comment.createdAt(), comment.postUserId());
        }

        static CommentChanged deleted(String eventId, Comment comment) {
            return new CommentChanged(eventId, comment.commentId(), comment.postId(), comment.authorId(), null,
                    comment.postUserId());
        }
    }

    private BlogEvents() {
    }
}
