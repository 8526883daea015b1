package io.tally.core.read;

import io.tally.core.Key;
import io.tally.core.http.ApiException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/** A BatchGetItem read to the end, for every domain's read side. */
public final class BatchReads {
    /** Calls of one BatchGetItem until every key is read; each retry asks only for the keys left over. */
    public static final int MAX_ATTEMPTS = 5;

    private BatchReads() {
    }

    /**
     * Every item of a BatchGetItem of {@code table}. DynamoDB may leave keys unprocessed when it runs into throughput
     * limits; they are asked for again after a short, growing, jittered pause, and a batch that still has some after
     * {@link #MAX_ATTEMPTS} calls is a 503 for the client to retry.
     */
    public static List<Map<String, AttributeValue>> getAll(DynamoDbClient dynamo, String table,
                                                           BatchGetItemRequest request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        BatchGetItemRequest next = request;
        for (int attempt = 1; ; attempt++) {
            BatchGetItemResponse response = dynamo.batchGetItem(next);
            items.addAll(response.responses().getOrDefault(table, List.of()));
            next = unprocessed(response);
            if (next == null) {
                return items;
            }
            if (attempt == MAX_ATTEMPTS) {
                throw ApiException.unavailable("the table is busy; retry");
            }
            pause(attempt);
        }
    }

    /**
     * The named attributes of the items at {@code keys} (at most 100, one BatchGetItem), eventually consistent; a key
     * with no item answers nothing. As {@link #getAll(DynamoDbClient, String, BatchGetItemRequest)}.
     */
    public static List<Map<String, AttributeValue>> getAll(DynamoDbClient dynamo, String table, List<Key> keys,
                                                           List<String> attributes) {
        if (keys.isEmpty()) {
            return List.of();
        }
        Map<String, String> names = new HashMap<>();
        String projection = DerivedReads.projection(attributes, names);
        return getAll(dynamo, table, BatchGetItemRequest.builder().requestItems(Map.of(table, KeysAndAttributes
                .builder().keys(keys.stream().map(Key::toAttributeMap).toList()).projectionExpression(projection)
                .expressionAttributeNames(names).build())).build());
    }

    /** The items at {@code keys} (at most 100, one BatchGetItem), whole and strongly consistent; a key with none answers nothing. */
    public static List<Map<String, AttributeValue>> getAllConsistent(DynamoDbClient dynamo, String table,
                                                                     List<Key> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        return getAll(dynamo, table, BatchGetItemRequest.builder().requestItems(Map.of(table, KeysAndAttributes
                .builder().keys(keys.stream().map(Key::toAttributeMap).toList()).consistentRead(true).build())).build());
    }

    /**
     * A jittered pause that grows with the attempt, so that requests that collided (or ran into a limit) do not come
     * back in step; an interrupt is a {@code unavailable} the client may retry.
     */
    public static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted while waiting to retry");
        }
    }

    /**
     * The request for the keys a BatchGetItem left unprocessed (it may, when it runs into throughput limits),
     * or null when it processed all. DynamoDB returns them in the form of the original request, projection and
     * consistency included.
     */
    static BatchGetItemRequest unprocessed(BatchGetItemResponse response) {
        if (!response.hasUnprocessedKeys() || response.unprocessedKeys().values().stream()
                .allMatch(keys -> !keys.hasKeys() || keys.keys().isEmpty())) {
            return null;
        }
        return BatchGetItemRequest.builder().requestItems(response.unprocessedKeys()).build();
    }
}
