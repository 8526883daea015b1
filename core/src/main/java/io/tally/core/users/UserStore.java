package io.tally.core.users;

import io.tally.core.http.ApiException;
import io.tally.core.http.IfMatch;
import io.tally.core.store.Condition;
import io.tally.core.store.Requests;
import io.tally.core.store.TypedTable;
import io.tally.core.store.Update;
import java.time.Instant;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Where a failed condition on a user becomes the client's answer: a condition only says "no", and which rule
 * said it is read here, from the old image, once for every route that writes users.
 */
public final class UserStore {
    private final DynamoDbClient dynamo;
    private final String table;
    private final TypedTable<User> users;

    public UserStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
        this.users = TypedTable.of(dynamo, table, User.SCHEMA);
    }

    /** Writes a new user; an id already taken is a {@code conflict}. */
    void create(User user) {
        if (!users.putNew(user)) {
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

    /**
     * The user after the change: the given fields set, its version bumped. The condition refuses to create a user and
     * enforces {@code If-Match}; {@code not_found} without a user, {@code precondition_failed} on another version.
     */
    User update(String userId, String name, String email, Instant now, IfMatch ifMatch) {
        return users.update(Users.key(userId), Update.versioned(now).set(User.NAME, name).set(User.EMAIL, email),
                Condition.exists().atVersion(ifMatch.version()), current -> {
                    User user = current.orElseThrow(() -> notFound(userId));
                    throw ApiException.preconditionFailed("user '" + userId + "' is at version " + user.version()
                            + ", not " + ifMatch.version());
                });
    }

    public static ApiException notFound(String userId) {
        return ApiException.notFound("user '" + userId + "' does not exist");
    }

    private Map<String, AttributeValue> find(String userId) {
        Map<String, AttributeValue> item = dynamo.getItem(Requests.consistentGet(table, Users.key(userId))).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId);
        }
        return item;
    }
}
