package io.tally.core.users;

import io.tally.core.http.IfMatch;
import io.tally.core.store.VersionedUpdates;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** Pure builders of the user requests; tested by comparing the requests they build. */
final class UserRequests {
    private UserRequests() {
    }

    /** A create never overwrites: the put is conditional on the key being free. */
    static PutItemRequest create(String table, User user) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(user.toItem())
                .conditionExpression("attribute_not_exists(pk)")
                .build();
    }

    static GetItemRequest get(String table, String userId) {
        return GetItemRequest.builder()
                .tableName(table)
                .key(Users.key(userId).toAttributeMap())
                .consistentRead(true)
                .build();
    }

    /**
     * Changes the given fields, bumps the version, and returns the new item. The condition makes the update
     * fail rather than create a user, and enforces {@code If-Match}; the old image returned on failure tells
     * 404 from 412.
     */
    static UpdateItemRequest update(String table, String userId, String name, String email, Instant now, IfMatch ifMatch) {
        List<String> sets = new ArrayList<>();
        Map<String, String> names = new HashMap<>();
        Map<String, AttributeValue> values = new HashMap<>();
        if (name != null) {
            sets.add("#name = :name");
            names.put("#name", User.NAME);
            values.put(":name", AttributeValue.fromS(name));
        }
        if (email != null) {
            sets.add(User.EMAIL + " = :email");
            values.put(":email", AttributeValue.fromS(email));
        }
        return VersionedUpdates.request(table, Users.key(userId), sets, names, values, "attribute_exists(pk)", now,
                ifMatch.version());
    }
}
