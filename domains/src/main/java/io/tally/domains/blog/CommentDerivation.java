package io.tally.domains.blog;

import io.tally.core.Timestamps;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.users.SharedStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An existing comment counts on its post's projection, in its author's stats and in the global totals; a deleted
 * comment (REMOVE) no longer exists, so it stops counting everywhere. Comments own no document.
 */
public final class CommentDerivation extends EntityDerivation<Comment> {
    public static final String COMMENT_ADDED = "CommentAdded";
    public static final String COMMENT_DELETED = "CommentDeleted";


    public CommentDerivation() {
        super(Blog.COMMENT);
    }

    @Override
    protected Comment read(Map<String, AttributeValue> image) {
        return Comment.fromItem(image);
    }

    @Override
    protected Contribution contribution(Comment comment) {
        return Contribution.builder()
                .count(Blog.POST_PROJECTION, comment.postId(), Blog.Projection.COMMENTS, 1)
                .count(SharedStats.user(comment.authorId(), Blog.USER_COMMENTS), 1)
                .count(SharedStats.global(Blog.GLOBAL_COMMENTS), 1)
                .build();
    }

    /** {@code CommentAdded} on INSERT, {@code CommentDeleted} on REMOVE; comments are never modified. */
    @Override
    protected List<DomainEvent> events(String eventId, Comment before, Comment after) {
        if (before == null && after != null) {
            return List.of(event(eventId, COMMENT_ADDED, after));
        }
        if (before != null && after == null) {
            return List.of(event(eventId, COMMENT_DELETED, before));
        }
        return List.of();
    }

    private static DomainEvent event(String eventId, String detailType, Comment comment) {
        String id = DomainEvent.idFor(eventId, detailType, comment.commentId());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("commentId", comment.commentId());
        detail.put("postId", comment.postId());
        detail.put("authorId", comment.authorId());
        if (detailType.equals(COMMENT_ADDED)) {
            detail.put("createdAt", Timestamps.format(comment.createdAt()));
        }
        // The post's author, whom a subscriber typically notifies, without a read of the post.
        detail.put("postUserId", comment.postUserId());
        return new DomainEvent(id, detailType, detail);
    }
}
