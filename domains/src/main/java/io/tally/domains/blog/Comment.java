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
 * A comment, stored in its post's comment partition. {@code postUserId} and {@code postCreatedAt} locate the
 * post; comment ids are always generated (time-ordered), so the sort key orders comments oldest first.
 */
public record Comment(String commentId, String postId, String postUserId, Instant postCreatedAt,
                      String authorId, String text, Instant createdAt) {
    /** Attribute names of the item. */
    public static final String COMMENT_ID = "commentId";
    public static final String POST_ID = "postId";
    public static final String POST_USER_ID = "postUserId";
    public static final String POST_CREATED_AT = "postCreatedAt";
    public static final String AUTHOR_ID = "authorId";
    public static final String TEXT = "text";
    public static final String CREATED_AT = "createdAt";


    public Key key() {
        return BlogKeys.comment(postId, postCreatedAt, commentId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Blog.COMMENT));
        item.put(COMMENT_ID, s(commentId));
        item.put(POST_ID, s(postId));
        item.put(POST_USER_ID, s(postUserId));
        item.put(POST_CREATED_AT, ts(postCreatedAt));
        item.put(AUTHOR_ID, s(authorId));
        item.put(TEXT, s(text));
        item.put(CREATED_AT, ts(createdAt));
        return item;
    }

    public static Comment fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Blog.COMMENT);
        return new Comment(
                Items.string(item, COMMENT_ID),
                Items.string(item, POST_ID),
                Items.string(item, POST_USER_ID),
                Items.instant(item, POST_CREATED_AT),
                Items.string(item, AUTHOR_ID),
                Items.string(item, TEXT),
                Items.instant(item, CREATED_AT));
    }
}
