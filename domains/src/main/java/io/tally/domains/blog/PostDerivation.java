package io.tally.domains.blog;

import static io.tally.core.Items.s;

import io.tally.core.Shards;
import io.tally.core.derive.Contribution;
import io.tally.core.derive.EntityDerivation;
import io.tally.core.events.DomainEvent;
import io.tally.core.events.EventType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A post owns the document part of its status-index projection (its counts, in its author's {@code posts} while it
 * is not deleted and once in the global totals under its status, are views: {@link BlogFigures#POSTS}). The projection stays for a deleted post: {@code GET /posts?status=deleted} lists
 * it.
 */
public final class PostDerivation extends EntityDerivation<Post> {
    public static final EventType POST_CREATED = EventType.publicEvent("PostCreated", PostCreated.class);
    public static final EventType POST_STATUS_CHANGED = EventType.publicEvent("PostStatusChanged", PostStatusChanged.class);

    /** The detail of {@code PostCreated}. */
    public record PostCreated(String eventId, String postId, String userId, String title, PostStatus status,
                              Instant createdAt) {
    }

    /**
     * The detail of {@code PostStatusChanged}, with the post's title after the change, so that a subscriber can name
     * the post (e.g. "your post ... was deleted") without reading it.
     */
    public record PostStatusChanged(String eventId, String postId, String userId, PostStatus from, PostStatus to,
                                    Instant updatedAt, String title) {
    }

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

    /**
     * {@code PostCreated} when the post appears, {@code PostStatusChanged} when its status changes. A hard delete
     * (REMOVE) announces nothing: the API only soft-deletes, which is a status change.
     */
    @Override
    protected List<DomainEvent> events(String eventId, Post before, Post after) {
        if (after == null) {
            return List.of();
        }
        if (before == null) {
            return List.of(created(eventId, after));
        }
        if (before.status() != after.status()) {
            return List.of(statusChanged(eventId, before, after));
        }
        return List.of();
    }

    private static DomainEvent created(String eventId, Post post) {
        return DomainEvent.about(eventId, POST_CREATED, post.postId(), id -> new PostCreated(id, post.postId(),
                post.userId(), post.title(), post.status(), post.createdAt()));
    }

    private static DomainEvent statusChanged(String eventId, Post before, Post after) {
        return DomainEvent.about(eventId, POST_STATUS_CHANGED, after.postId(), id -> new PostStatusChanged(id,
                after.postId(), after.userId(), before.status(), after.status(), after.updatedAt(), after.title()));
    }
}
