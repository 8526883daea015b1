package example.reviews;

import io.tally.core.Key;
import io.tally.core.http.ApiException;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/** The reviews in the table: pure request builders, and their calls (the figures are read by their views). */
record ReviewStore(DynamoDbClient dynamo, String table) {
    /** Writes the review; whether it replaced one (the old item comes back). */
    boolean put(Review review) {
        Map<String, AttributeValue> old = dynamo.putItem(put(table, review)).attributes();
        return old != null && !old.isEmpty();
    }

    Review get(String userId, String itemId) {
        Map<String, AttributeValue> item = dynamo.getItem(get(table, Review.key(userId, itemId))).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId, itemId);
        }
        return Review.SCHEMA.fromItem(item);
    }

    /** Deletes the review and answers it as it was; {@code not_found} when there is none. */
    Review delete(String userId, String itemId) {
        try {
            return Review.SCHEMA.fromItem(dynamo.deleteItem(delete(table, Review.key(userId, itemId))).attributes());
        } catch (ConditionalCheckFailedException e) {
            throw notFound(userId, itemId);
        }
    }

    static PutItemRequest put(String table, Review review) {
        return PutItemRequest.builder().tableName(table).item(Review.SCHEMA.toItem(review))
                .returnValues(ReturnValue.ALL_OLD).build();
    }

    /** Strongly consistent: a review just written reads back. */
    static GetItemRequest get(String table, Key key) {
        return GetItemRequest.builder().tableName(table).key(key.toAttributeMap()).consistentRead(true).build();
    }

    /** Only an existing review: the condition makes a missing one a {@code not_found}, not a silent no-op. */
    static DeleteItemRequest delete(String table, Key key) {
        return DeleteItemRequest.builder().tableName(table).key(key.toAttributeMap())
                .conditionExpression("attribute_exists(pk)").returnValues(ReturnValue.ALL_OLD).build();
    }

    private static ApiException notFound(String userId, String itemId) {
        return ApiException.notFound("user '" + userId + "' has no review of item '" + itemId + "'");
    }
}
