package io.tally.domains.blog;

import static io.tally.core.Items.s;

import io.tally.core.Shards;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A post owns the document part of its status-index projection (its counts, in its author's {@code posts} while it
 * is not deleted and once in the global totals under its status, are views: {@link BlogFigures#POSTS}). The projection stays for a deleted post: {@code GET /posts?status=deleted} lists
 * it. Its events are announcements ({@link BlogEvents}).
 */
public final class PostDerivation extends EntityDerivation<Post> {
    private final int statusShards;

    public PostDerivation(int statusShards) {
        super(Blog.POST, Post::fromItem);
        this.statusShards = statusShards;
    }

    @Override
    protected Contribution contribution(Post post) {
        return Contribution.builder()
                .document(Blog.POST_PROJECTION, post.postId(), projection(post))
                .build();
    }

    /**
     * The post's version: 1 when created, one more with every update and soft delete. Post ids are generated and
     * never reused (the post ref guards them), and the API never removes a post, so the version alone orders its
     * states.
     */
    @Override
    protected long revision(Post post) {
        return post.version();
    }

    private Map<String, AttributeValue> projection(Post post) {
        Map<String, AttributeValue> values = PostProjection.SCHEMA.fieldsOf(PostProjection.of(post));
        // The shard follows the post id, not the status, so a status change moves the projection between the
        // status partitions by updating this one attribute.
        values.put(BlogKeys.STATUS_SHARD,
                s(BlogKeys.statusShard(post.status(), Shards.of(post.postId(), statusShards))));
        values.put(BlogKeys.STATUS_POSTED_AT, s(BlogKeys.postedAt(post.postId(), post.createdAt())));
        return values;
    }
}
