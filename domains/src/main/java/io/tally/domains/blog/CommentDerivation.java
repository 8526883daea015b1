package io.tally.domains.blog;

import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;

/**
 * An existing comment counts on its post's projection (and, through {@link BlogFigures#COMMENTS}, in its author's
 * stats and in the global totals); a deleted comment (REMOVE) no longer exists, so it stops counting everywhere.
 * Comments own no document. Their events are announcements ({@link BlogEvents}).
 */
public final class CommentDerivation extends EntityDerivation<Comment> {
    public CommentDerivation() {
        super(Blog.COMMENT, Comment::fromItem);
    }

    @Override
    protected Contribution contribution(Comment comment) {
        return Contribution.builder()
                .count(Blog.POST_PROJECTION, comment.postId(), Blog.Projection.COMMENTS, 1)
                .build();
    }
}
