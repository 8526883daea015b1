package io.tally.stream.derive;

import io.tally.core.EntityType;
import io.tally.core.Timestamps;
import io.tally.core.blog.Blog;
import io.tally.core.blog.Comment;
import io.tally.stream.events.DomainEvent;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An existing comment counts on its post's projection, in its author's stats and in the global totals; a deleted
 * comment (REMOVE) no longer exists, so it stops counting everywhere. Comments own no document.
 */
public final class CommentDerivation implements Derivation {
    private final int globalShards;

    public CommentDerivation(int globalShards) {
        this.globalShards = DerivedCounters.requireShards(globalShards, "globalShards");
    }

    @Override
    public EntityType entityType() {
        return Blog.COMMENT;
    }

    @Override
    public Contribution contribution(Map<String, AttributeValue> image) {
        Comment comment = Comment.fromItem(image);
        return Contribution.builder()
                .count(DerivedCounters.postProjection(comment.postId(), Blog.Projection.COMMENTS), 1)
                .count(DerivedCounters.userStats(comment.authorId(), Blog.USER_COMMENTS), 1)
                .count(DerivedCounters.globalStats(comment.commentId(), globalShards, Blog.GLOBAL_COMMENTS), 1)
                .build();
    }

    /** {@code CommentAdded} on INSERT, {@code CommentDeleted} on REMOVE; comments are never modified. */
    @Override
    public List<DomainEvent> events(String eventId, Map<String, AttributeValue> oldImage,
                                    Map<String, AttributeValue> newImage) {
        Comment before = oldImage == null ? null : Comment.fromItem(oldImage);
        Comment after = newImage == null ? null : Comment.fromItem(newImage);
        if (before == null && after != null) {
            return List.of(added(eventId, after));
        }
        if (before != null && after == null) {
            return List.of(deleted(eventId, before));
        }
        return List.of();
    }

    private static DomainEvent added(String eventId, Comment comment) {
        String id = DomainEvent.idFor(eventId, DetailTypes.COMMENT_ADDED, comment.commentId());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("commentId", comment.commentId());
        detail.put("postId", comment.postId());
        detail.put("authorId", comment.authorId());
        detail.put("createdAt", Timestamps.format(comment.createdAt()));
        // The post's author, whom a subscriber typically notifies, without a read of the post.
        detail.put("postUserId", comment.postUserId());
        return new DomainEvent(id, DetailTypes.COMMENT_ADDED, detail);
    }

    private static DomainEvent deleted(String eventId, Comment comment) {
        String id = DomainEvent.idFor(eventId, DetailTypes.COMMENT_DELETED, comment.commentId());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("eventId", id);
        detail.put("commentId", comment.commentId());
        detail.put("postId", comment.postId());
        detail.put("authorId", comment.authorId());
        detail.put("postUserId", comment.postUserId());
        return new DomainEvent(id, DetailTypes.COMMENT_DELETED, detail);
    }
}
