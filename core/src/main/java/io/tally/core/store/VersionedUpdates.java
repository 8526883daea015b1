package io.tally.core.store;

import io.tally.core.Key;
import io.tally.core.Timestamps;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * The change of a versioned item the writer owns (a user, a post, an organisation): the caller's SETs, then
 * {@code updatedAt} and {@code version + 1}; on the caller's condition (at least that the item exists) and, with
 * {@code If-Match}, on the version. It returns the new item, and the old one when the condition refuses, which tells
 * 404 from 412.
 */
public final class VersionedUpdates {
    public static final String UPDATED_AT = "updatedAt";
    public static final String VERSION = "version";

    private VersionedUpdates() {
    }

    /**
     * @param sets            the item's own changes, e.g. {@code #name = :name}
     * @param expectedVersion the version {@code If-Match} requires, or null
     */
    public static UpdateItemRequest request(String table, Key key, List<String> sets, Map<String, String> names,
                                            Map<String, AttributeValue> values, String condition, Instant now,
                                            Long expectedVersion) {
        List<String> allSets = new ArrayList<>(sets);
        allSets.add(UPDATED_AT + " = :now");
        allSets.add(VERSION + " = " + VERSION + " + :one");
        Map<String, AttributeValue> allValues = new HashMap<>(values);
        allValues.put(":now", AttributeValue.fromS(Timestamps.format(now)));
        allValues.put(":one", AttributeValue.fromN("1"));
        String allConditions = condition;
        if (expectedVersion != null) {
            allConditions += " AND " + VERSION + " = :expected";
            allValues.put(":expected", AttributeValue.fromN(Long.toString(expectedVersion)));
        }
        UpdateItemRequest.Builder builder = UpdateItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .updateExpression("SET " + String.join(", ", allSets))
                .conditionExpression(allConditions)
                .expressionAttributeValues(allValues)
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD);
        if (!names.isEmpty()) {
            // DynamoDB refuses an empty map of names.
            builder.expressionAttributeNames(names);
        }
        return builder.build();
    }
}
