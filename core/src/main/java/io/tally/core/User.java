package io.tally.core;

import static io.tally.core.Items.n;
import static io.tally.core.Items.s;
import static io.tally.core.Items.ts;
import static io.tally.core.Items.type;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** A blog user (seeds 000/001), also the owner of a learning journey (seed 003). */
public record User(String userId, String name, String email, Instant createdAt, Instant updatedAt, long version) {

    public Key key() {
        return Keys.user(userId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(EntityType.USER));
        item.put("userId", s(userId));
        item.put("name", s(name));
        item.put("email", s(email));
        item.put("createdAt", ts(createdAt));
        item.put("updatedAt", ts(updatedAt));
        item.put("version", n(version));
        return item;
    }

    public static User fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, EntityType.USER);
        return new User(
                Items.string(item, "userId"),
                Items.string(item, "name"),
                Items.string(item, "email"),
                Items.instant(item, "createdAt"),
                Items.instant(item, "updatedAt"),
                Items.number(item, "version"));
    }
}
