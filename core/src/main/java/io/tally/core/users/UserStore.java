package io.tally.core.users;

import io.tally.core.http.ApiException;
import io.tally.core.http.IfMatch;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;

/**
 * Where a failed condition on a user becomes the client's answer: a condition only says "no", and which rule
 * said it is read here, from the old image, once for every route that writes users.
 */
public record UserStore(DynamoDbClient dynamo, String table) {
    /** Writes a new user; an id already taken is a {@code conflict}. */
    void create(User user) {
        try {
            dynamo.putItem(UserRequests.create(table, user));
        } catch (ConditionalCheckFailedException e) {
            throw ApiException.conflict("user '" + user.userId() + "' already exists");
        }
    }

    public User get(String userId) {
        return User.fromItem(find(userId));
    }

    /** Only that the user exists: the item is not read as a user, so nothing but its absence fails. */
    public void requireExists(String userId) {
        find(userId);
    }

    /** The user after the change; {@code not_found} without a user, {@code precondition_failed} on another version. */
    User update(String userId, String name, String email, Instant now, IfMatch ifMatch) {
        try {
            return User.fromItem(dynamo.updateItem(UserRequests.update(table, userId, name, email, now, ifMatch))
                    .attributes());
        } catch (ConditionalCheckFailedException e) {
            if (!e.hasItem() || e.item().isEmpty()) {
                throw notFound(userId);
            }
            throw ApiException.preconditionFailed("user '" + userId + "' is at version "
                    + User.fromItem(e.item()).version() + ", not " + ifMatch.version());
        }
    }

    public static ApiException notFound(String userId) {
        return ApiException.notFound("user '" + userId + "' does not exist");
    }

    private Map<String, AttributeValue> find(String userId) {
        Map<String, AttributeValue> item = dynamo.getItem(UserRequests.get(table, userId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId);
        }
        return item;
    }
}
