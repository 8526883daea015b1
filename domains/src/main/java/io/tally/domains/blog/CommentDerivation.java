package io.tally.domains.blog;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;

/**
 * An existing comment counts on its post's projection (and, through {@link BlogFigures#COMMENTS}, in its author's
 * stats and in the global totals); a deleted comment (REMOVE) no longer exists, so it stops counting everywhere.
 * Comments own no document.
 */
public final class CommentDerivation extends EntityDerivation<Comment> {
    /** Public as {@code /posts} shows comments: that a post has them, not who wrote them. */
    public static final EventType COMMENT_ADDED = EventType.publicEvent("CommentAdded", CommentChanged.class,
            "authorId");
    public static final EventType COMMENT_DELETED = EventType.publicEvent("CommentDeleted", CommentChanged.class,
            "authorId");

    /**
     * The detail of {@code CommentAdded} and {@code CommentDeleted}, with the post's author, whom a subscriber
     * typically notifies, without a read of the post.
     *
     * @param createdAt when the comment was written: in {@code CommentAdded} only
     */
    @JsonPropertyOrder({"eventId", "commentId", "postId", "authorId", "createdAt", "postUserId"})
    public record CommentChanged(String eventId, String commentId, String postId, String authorId,
                                 @JsonInclude(JsonInclude.Include.NON_NULL) Instant createdAt, String postUserId) {
    }

    public CommentDerivation() {
        super(Blog.COMMENT, Comment::fromItem);
    }

    @Override
    protected Contribution contribution(Comment comment) {
        return Contribution.builder()
                .count(Blog.POST_PROJECTION, comment.postId(), Blog.Projection.COMMENTS, 1)
                .build();
    }

    /** {@code CommentAdded} on INSERT, {@code CommentDeleted} on REMOVE; comments are never modified. */
    @Override
    protected List<DomainEvent> events(String eventId, Comment before, Comment after) {
        return createdOrRemoved(before, after, created -> event(eventId, COMMENT_ADDED, created),
                removed -> event(eventId, COMMENT_DELETED, removed));
    }

    private static DomainEvent event(String eventId, EventType detailType, Comment comment) {
        return DomainEvent.about(eventId, detailType, comment.commentId(), id -> new CommentChanged(id,
                comment.commentId(), comment.postId(), comment.authorId(),
                detailType == COMMENT_ADDED ? comment.createdAt() : null, comment.postUserId()));
    }
}
