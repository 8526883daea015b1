package io.tally.domains.blog;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A blog post, stored under its author's partition. The record is both the item ({@link #SCHEMA}) and the contract's
 * JSON, in its field order.
 */
public record Post(String postId, String userId, String title, String body, PostStatus status,
                   Instant createdAt, Instant updatedAt, long version) {
    /** Attribute names the writer's update and its conditions set and compare. */
    public static final String TITLE = "title";
    public static final String BODY = "body";
    public static final String STATUS = "status";

    /** The item also feeds the posts-by-time index: {@code postedAt} is its range key. */
    public static final ItemSchema<Post> SCHEMA = ItemSchema.of(Post.class, Blog.POST, Post::key)
            .computed(BlogKeys.POSTED_AT, post -> BlogKeys.postedAt(post.postId(), post.createdAt()))
            .build();

    public Key key() {
        return BlogKeys.post(userId, postId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static Post fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
