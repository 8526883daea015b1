package io.tally.core.users;

import io.tally.core.ItemSchema;
import io.tally.core.Key;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A user: the owner of a blog, a learning journey, favourites, whatever a domain keeps about a person. The record is
 * both the item ({@link #SCHEMA}) and the contract's JSON, in its field order.
 */
public record User(String userId, String name, String email, Instant createdAt, Instant updatedAt, long version) {
    /** Attribute names the writer's update sets. */
    public static final String NAME = "name";
    public static final String EMAIL = "email";

    public static final ItemSchema<User> SCHEMA = ItemSchema.of(User.class, Users.USER, User::key).build();

    public Key key() {
        return Users.key(userId);
    }

    public Map<String, AttributeValue> toItem() {
        return SCHEMA.toItem(this);
    }

    public static User fromItem(Map<String, AttributeValue> item) {
        return SCHEMA.fromItem(item);
    }
}
