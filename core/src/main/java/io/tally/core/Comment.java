package io.tally.core;

import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A comment, stored in its post's comment partition. {@code postUserId} and {@code postCreatedAt} locate the
 * post; comment ids are always generated (time-ordered), so the sort key orders comments oldest first.
 */
public record Comment(String commentId, String postId, String postUserId, Instant postCreatedAt,
                      String authorId, String text, Instant createdAt) {

    public Key key() {
        return Keys.comment(postId, postCreatedAt, commentId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(EntityType.COMMENT));
        item.put("commentId", s(commentId));
        item.put("postId", s(postId));
        item.put("postUserId", s(postUserId));
        item.put("postCreatedAt", ts(postCreatedAt));
        item.put("authorId", s(authorId));
        item.put("text", s(text));
        item.put("createdAt", ts(createdAt));
        return item;
    }

    public static Comment fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, EntityType.COMMENT);
        return new Comment(
                Items.string(item, "commentId"),
                Items.string(item, "postId"),
                Items.string(item, "postUserId"),
                Items.instant(item, "postCreatedAt"),
                Items.string(item, "authorId"),
                Items.string(item, "text"),
                Items.instant(item, "createdAt"));
    }
}
