package io.tally.core.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.http.ApiException;
import io.tally.core.http.ErrorCode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

/** The global totals' BatchGetItem when DynamoDB leaves keys unprocessed (no network: a scripted client). */
class StatsStoreTest {
    private static final String TABLE = "t";

    /** Answers BatchGetItem from a script and records the requests. */
    private static final class ScriptedDynamoDb implements DynamoDbClient {
        final Deque<BatchGetItemResponse> script = new ArrayDeque<>();
        final List<BatchGetItemRequest> requests = new ArrayList<>();

        @Override
        public BatchGetItemResponse batchGetItem(BatchGetItemRequest request) {
            requests.add(request);
            return script.isEmpty() ? script(request) : script.poll();
        }

        /** When the script has run out: leave every key unprocessed. */
        private static BatchGetItemResponse script(BatchGetItemRequest request) {
            return BatchGetItemResponse.builder().responses(Map.of()).unprocessedKeys(request.requestItems()).build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    private final ScriptedDynamoDb dynamo = new ScriptedDynamoDb();
    private final StatsStore store = new StatsStore(dynamo, TABLE, StatsRequestsTest.REGISTRY);

    private static Map<String, AttributeValue> shard(int k, long users, long comments) {
        return Map.of("pk", AttributeValue.fromS("GLOBAL#STATS#" + k), "sk", AttributeValue.fromS("#STATS#"),
                "entityType", AttributeValue.fromS("GlobalStats"),
                "users", AttributeValue.fromN(Long.toString(users)), "comments", AttributeValue.fromN(Long.toString(comments)));
    }

    private static KeysAndAttributes keysOf(BatchGetItemRequest request, int... shards) {
        List<Map<String, AttributeValue>> keys = new ArrayList<>();
        for (int k : shards) {
            keys.add(request.requestItems().get(TABLE).keys().get(k));
        }
        return request.requestItems().get(TABLE).toBuilder().keys(keys).build();
    }

    @Test
    void globalStats_keysLeftUnprocessed_readsExactlyThoseAgainAndReturnsEveryShard() {
        BatchGetItemRequest first = StatsRequests.globalStats(TABLE, 4, StatsRequestsTest.REGISTRY);
        dynamo.script.add(BatchGetItemResponse.builder()
                .responses(Map.of(TABLE, List.of(shard(0, 1, 10), shard(3, 2, 20))))
                .unprocessedKeys(Map.of(TABLE, keysOf(first, 1, 2)))
                .build());
        dynamo.script.add(BatchGetItemResponse.builder()
                .responses(Map.of(TABLE, List.of(shard(2, 4, 40))))
                .unprocessedKeys(Map.of(TABLE, keysOf(first, 1)))
                .build());
        dynamo.script.add(BatchGetItemResponse.builder()
                .responses(Map.of(TABLE, List.of(shard(1, 8, 80))))
                .build());

        var shards = store.globalStats(4);

        assertThat(shards).containsExactlyInAnyOrder(shard(0, 1, 10), shard(1, 8, 80), shard(2, 4, 40), shard(3, 2, 20));
        assertThat(dynamo.requests).hasSize(3);
        assertThat(dynamo.requests.get(0)).isEqualTo(first);
        assertThat(dynamo.requests.get(1).requestItems()).isEqualTo(Map.of(TABLE, keysOf(first, 1, 2)));
        assertThat(dynamo.requests.get(2).requestItems()).isEqualTo(Map.of(TABLE, keysOf(first, 1)));
    }

    @Test
    void globalStats_keysNeverProcessed_isUnavailableAfterTheLastAttempt() {
        assertThatThrownBy(() -> store.globalStats(4))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.UNAVAILABLE));
        assertThat(dynamo.requests).hasSize(StatsStore.MAX_BATCH_ATTEMPTS);
    }
}
