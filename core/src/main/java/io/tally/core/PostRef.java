package io.tally.core;

import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reserves a post id across all users and locates the post: a post's key holds its creation time, so
 * {@code GET /stats/posts/{postId}} and comment writes find the post through this item in one GetItem.
 */
public record PostRef(String postId, String userId, Instant createdAt) {

    public Key key() {
        return Keys.postRef(postId);
    }

    public Key postKey() {
        return Keys.post(userId, postId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(EntityType.POST_REF));
        item.put("postId", s(postId));
        item.put("userId", s(userId));
        item.put("createdAt", ts(createdAt));
        return item;
    }

    public static PostRef fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, EntityType.POST_REF);
        return new PostRef(Items.string(item, "postId"), Items.string(item, "userId"), Items.instant(item, "createdAt"));
    }
}
