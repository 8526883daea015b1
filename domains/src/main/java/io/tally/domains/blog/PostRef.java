package io.tally.domains.blog;

import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reserves a post id across all users and locates the post: a post's key holds its creation time, so
 * {@code GET /stats/posts/{postId}} and comment writes find the post through this item in one GetItem.
 */
public record PostRef(String postId, String userId, Instant createdAt) {
    /** Attribute names of the item. */
    public static final String POST_ID = "postId";
    public static final String USER_ID = "userId";
    public static final String CREATED_AT = "createdAt";


    public Key key() {
        return BlogKeys.postRef(postId);
    }

    public Key postKey() {
        return BlogKeys.post(userId, postId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Blog.POST_REF));
        item.put(POST_ID, s(postId));
        item.put(USER_ID, s(userId));
        item.put(CREATED_AT, ts(createdAt));
        return item;
    }

    public static PostRef fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Blog.POST_REF);
        return new PostRef(Items.string(item, POST_ID), Items.string(item, USER_ID), Items.instant(item, CREATED_AT));
    }
}
