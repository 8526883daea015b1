package io.tally.domains.blog;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reserves a post id across all users and locates the post: a post's key holds its creation time, so
 * {@code GET /stats/posts/{postId}} and comment writes find the post through this item in one GetItem.
 */
public record PostRef(String postId, String userId, Instant createdAt) {
    public static final ItemSchema<PostRef> SCHEMA = ItemSchema.of(PostRef.class, Blog.POST_REF, PostRef::key).build();

    public Key key() {
        return BlogKeys.postRef(postId);
    }

    public Key postKey() {
        return BlogKeys.post(userId, postId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static PostRef fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
