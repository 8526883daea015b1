package io.tally.core.blog;

import static io.tally.core.Items.n;
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

/** A blog user (seeds 000/001), also the owner of a learning journey (seed 003). */
public record User(String userId, String name, String email, Instant createdAt, Instant updatedAt, long version) {
    /** Attribute names of the item. */
    public static final String USER_ID = "userId";
    public static final String NAME = "name";
    public static final String EMAIL = "email";
    public static final String CREATED_AT = "createdAt";
    public static final String UPDATED_AT = "updatedAt";
    public static final String VERSION = "version";


    public Key key() {
        return BlogKeys.user(userId);
    }

    public Map<String, AttributeValue> toItem() {
        Map<String, AttributeValue> item = new HashMap<>(key().toAttributeMap());
        item.put(TableSchema.ENTITY_TYPE, type(Blog.USER));
        item.put(USER_ID, s(userId));
        item.put(NAME, s(name));
        item.put(EMAIL, s(email));
        item.put(CREATED_AT, ts(createdAt));
        item.put(UPDATED_AT, ts(updatedAt));
        item.put(VERSION, n(version));
        return item;
    }

    public static User fromItem(Map<String, AttributeValue> item) {
        Items.expectType(item, Blog.USER);
        return new User(
                Items.string(item, USER_ID),
                Items.string(item, NAME),
                Items.string(item, EMAIL),
                Items.instant(item, CREATED_AT),
                Items.instant(item, UPDATED_AT),
                Items.number(item, VERSION));
    }
}
