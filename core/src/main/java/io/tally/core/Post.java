package io.tally.core;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A blog post, stored under its author's partition. */
public record Post(String postId, String userId, String title, String body, PostStatus status,
                   Instant createdAt, Instant updatedAt, long version) {

    public Key key() {
        return Keys.post(userId, postId, createdAt);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(EntityType.POST));
        item.put(TableSchema.POSTED_AT, s(Keys.postedAt(postId, createdAt)));
        item.put("postId", s(postId));
        item.put("userId", s(userId));
        item.put("title", s(title));
        item.put("body", s(body));
        item.put("status", s(status.value()));
        item.put("createdAt", ts(createdAt));
        item.put("updatedAt", ts(updatedAt));
        item.put("version", n(version));
        return item;
    }

    public static Post fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, EntityType.POST);
        String status = Items.string(item, "status");
        return new Post(
                Items.string(item, "postId"),
                Items.string(item, "userId"),
                Items.string(item, "title"),
                Items.string(item, "body"),
                PostStatus.parse(status).orElseThrow(() -> new MalformedItemException("unknown post status: " + status)),
                Items.instant(item, "createdAt"),
                Items.instant(item, "updatedAt"),
                Items.number(item, "version"));
    }
}
