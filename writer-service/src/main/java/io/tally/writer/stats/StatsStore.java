package io.tally.writer.stats;

import io.tally.writer.http.ApiException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;

/**
 * The reads of the shared stats items. A stats item is missing both for a subject with nothing counted yet and
 * for one that never existed; telling the two apart, and finishing a batch that DynamoDB answered in part, is
 * done here, so that the route only renders.
 */
final class StatsStore {
    /** Calls of one BatchGetItem until every key is read; each retry asks only for the keys left over. */
    static final int MAX_BATCH_ATTEMPTS = 5;

    private final DynamoDbClient dynamo;
    private final String table;

    StatsStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /**
     * The user's stats item, or null when nothing is counted yet. Stats exist only for users who exist (users
     * are never deleted), so the user item is read only when there are no stats: a user never written is
     * {@code not_found}.
     */
    Map<String, AttributeValue> userStats(String userId) {
        Map<String, AttributeValue> stats = DerivedReads.found(dynamo.getItem(StatsRequests.userStats(table, userId)));
        if (stats == null && DerivedReads.found(dynamo.getItem(StatsRequests.user(table, userId))) == null) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        return stats;
    }

    /** Every shard of the global totals that exists. */
    List<Map<String, AttributeValue>> globalStats(int shards) {
        return batchGet(StatsRequests.globalStats(table, shards));
    }

    /**
     * Every item of a BatchGetItem. DynamoDB may leave keys unprocessed when it runs into throughput limits; they
     * are asked for again after a short, growing, jittered pause, and a batch that still has some after
     * {@link #MAX_BATCH_ATTEMPTS} calls is a 503 for the client to retry.
     */
    private List<Map<String, AttributeValue>> batchGet(BatchGetItemRequest request) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        BatchGetItemRequest next = request;
        for (int attempt = 1; ; attempt++) {
            BatchGetItemResponse response = dynamo.batchGetItem(next);
            items.addAll(response.responses().getOrDefault(table, List.of()));
            next = StatsRequests.unprocessed(response);
            if (next == null) {
                return items;
            }
            if (attempt == MAX_BATCH_ATTEMPTS) {
                throw ApiException.unavailable("the table is busy; retry");
            }
            pause(attempt);
        }
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, 10L << attempt));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted while waiting to retry");
        }
    }
}
