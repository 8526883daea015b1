package io.tally.domains.blog;

import java.time.Instant;

/**
 * A post's copy in the status index ({@link Blog#POST_PROJECTION}), declared once: its document is what the view
 * {@link BlogFigures#PROJECTION} writes (every field but the counter, which the engine counts), and the whole record is
 * what {@code GET /posts?status=...} renders, fields in the contract's order.
 *
 * @param comments the post's existing comments; zero until one is counted
 */
public record PostProjection(String postId, String userId, String title, PostStatus status, Instant createdAt,
                             Instant updatedAt, long comments) {
    /** The projection of a post as the view writes it (its comments are counted elsewhere). */
    static PostProjection of(Post post) {
        return new PostProjection(post.postId(), post.userId(), post.title(), post.status(), post.createdAt(),
                post.updatedAt(), 0);
    }
}
