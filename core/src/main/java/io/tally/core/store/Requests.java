package io.tally.core.store;

import io.tally.core.Key;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/** The requests every domain's store builds alike: pure, tested by comparing the requests they build. */
public final class Requests {
    /** The condition of a write that must not overwrite: the key is free. */
    public static final String KEY_IS_FREE = "attribute_not_exists(pk)";
    /** The condition of a change or removal of an item that must exist. */
    public static final String ITEM_EXISTS = "attribute_exists(pk)";

    private Requests() {
    }

    /** A strongly consistent read of one item, whole: a write just answered reads back. */
    public static GetItemRequest consistentGet(String table, Key key) {
        return GetItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .consistentRead(true)
                .build();
    }

    /** A put that never overwrites: a key taken already fails the condition ({@code conflict}). */
    public static PutItemRequest putNew(String table, Map<String, AttributeValue> item) {
        return PutItemRequest.builder()
                .tableName(table)
                .item(item)
                .conditionExpression(KEY_IS_FREE)
                .build();
    }

    /** {@link #putNew} as an action of a transaction: a taken key cancels the transaction. */
    public static TransactWriteItem putNewAction(String table, Map<String, AttributeValue> item) {
        return TransactWriteItem.builder()
                .put(Put.builder().tableName(table).item(item).conditionExpression(KEY_IS_FREE).build())
                .build();
    }

    /** A transaction's check that the item at the key exists (a user, say), without reading or writing it. */
    public static TransactWriteItem existsAction(String table, Key key) {
        return checkAction(ConditionCheck.builder().tableName(table).key(key.toAttributeMap())
                .conditionExpression(ITEM_EXISTS));
    }

    /**
     * A transaction's check that the item at the key is still the incarnation read ({@code attribute} holds
     * {@code incarnation}): an item removed, or removed and made again under its id, meanwhile cancels the
     * transaction.
     */
    public static TransactWriteItem incarnationAction(String table, Key key, String attribute, String incarnation) {
        return checkAction(ConditionCheck.builder().tableName(table).key(key.toAttributeMap())
                .conditionExpression("#incarnation = :incarnation")
                .expressionAttributeNames(Map.of("#incarnation", attribute))
                .expressionAttributeValues(Map.of(":incarnation", AttributeValue.fromS(incarnation))));
    }

    private static TransactWriteItem checkAction(ConditionCheck.Builder check) {
        return TransactWriteItem.builder().conditionCheck(check.build()).build();
    }

    /**
     * The removal of an item that must exist, which answers the item as it was: a missing one fails the condition
     * ({@code not_found}) instead of being a silent no-op.
     */
    public static DeleteItemRequest deleteExisting(String table, Key key) {
        return DeleteItemRequest.builder()
                .tableName(table)
                .key(key.toAttributeMap())
                .conditionExpression(ITEM_EXISTS)
                .returnValues(ReturnValue.ALL_OLD)
                .build();
    }
}
