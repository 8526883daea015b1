package io.tally.domains.blog;

import io.tally.core.ItemSchema;
import io.tally.core.Items;
import io.tally.core.read.StatsJson;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A post's copy in the status index ({@link Blog#POST_PROJECTION}), declared once: its document is what
 * {@link PostDerivation} writes ({@link #SCHEMA}: every field but the counter, which the engine counts), and the whole
 * record is what {@code GET /posts?status=...} renders, fields in the contract's order.
 *
 * @param comments the post's existing comments; zero until one is counted
 */
public record PostProjection(String postId, String userId, String title, PostStatus status, Instant createdAt,
                             Instant updatedAt, long comments) {
    static final ItemSchema<PostProjection> SCHEMA = ItemSchema.of(PostProjection.class,
                    Blog.POST_PROJECTION.entityType(), projection -> Blog.POST_PROJECTION.key(projection.postId()))
            .notStored(Blog.Projection.COMMENTS)
            .build();

    /** The projection of a post as its derivation writes it (its comments are counted elsewhere). */
    static PostProjection of(Post post) {
        return new PostProjection(post.postId(), post.userId(), post.title(), post.status(), post.createdAt(),
                post.updatedAt(), 0);
    }

    /** A projection as read, with its comment count (zero when none is counted yet). */
    static PostProjection fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Blog.POST_PROJECTION.entityType());
        return SCHEMA.fields(item, Map.of(Blog.Projection.COMMENTS, StatsJson.counter(item, Blog.Projection.COMMENTS)));
    }
}
