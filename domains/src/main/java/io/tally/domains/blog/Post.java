package io.tally.domains.blog;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableSchema;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A blog post, stored under its author's partition. */
public record Post(String postId, String userId, String title, String body, PostStatus status,
                   Instant createdAt, Instant updatedAt, long version) {
    /** Attribute names of the item. */
    public static final String POST_ID = "postId";
    public static final String USER_ID = "userId";
    public static final String TITLE = "title";
    public static final String BODY = "body";
    public static final String STATUS = "status";
    public static final String CREATED_AT = "createdAt";
    public static final String UPDATED_AT = "updatedAt";
    public static final String VERSION = "version";


    public Key key() {
        return BlogKeys.post(userId, postId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Blog.POST));
        item.put(TableSchema.POSTED_AT, s(BlogKeys.postedAt(postId, createdAt)));
        item.put(POST_ID, s(postId));
        item.put(USER_ID, s(userId));
        item.put(TITLE, s(title));
        item.put(BODY, s(body));
        item.put(STATUS, s(status.value()));
        item.put(CREATED_AT, ts(createdAt));
        item.put(UPDATED_AT, ts(updatedAt));
        item.put(VERSION, n(version));
        return item;
    }

    public static Post fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Blog.POST);
        String status = Items.string(item, STATUS);
        return new Post(
                Items.string(item, POST_ID),
                Items.string(item, USER_ID),
                Items.string(item, TITLE),
                Items.string(item, BODY),
                PostStatus.parse(status).orElseThrow(() -> new MalformedItemException("unknown post status: " + status)),
                Items.instant(item, CREATED_AT),
                Items.instant(item, UPDATED_AT),
                Items.number(item, VERSION));
    }
}
