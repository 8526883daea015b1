package io.tally.core.users;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.http.ApiException;
import io.tally.core.http.ErrorCode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * The shared stats items read whole: a base item and the per-shard partials beside it, over pages of the Query (no
 * network: a client that answers from a list of items, one item a page, and records the requests).
 */
class StatsStoreTest {
    private static final String TABLE = "t";

    /** Answers Query from its items, in key order, one item a page, as DynamoDB would with a 1-item page limit. */
    private static final class ListedDynamoDb implements DynamoDbClient {
        final List<Map<String, AttributeValue>> items = new ArrayList<>();
        final List<QueryRequest> queries = new ArrayList<>();
        final List<GetItemRequest> gets = new ArrayList<>();

        @Override
        public QueryResponse query(QueryRequest request) {
            queries.add(request);
            String pk = request.expressionAttributeValues().get(":pk").s();
            String prefix = request.expressionAttributeValues().get(":sk").s();
            String after = request.hasExclusiveStartKey() ? request.exclusiveStartKey().get("sk").s() : null;
            List<Map<String, AttributeValue>> matching = items.stream()
                    .filter(item -> item.get("pk").s().equals(pk) && item.get("sk").s().startsWith(prefix))
                    .filter(item -> after == null || item.get("sk").s().compareTo(after) > 0)
                    .sorted((a, b) -> a.get("sk").s().compareTo(b.get("sk").s()))
                    .toList();
            if (matching.isEmpty()) {
                return QueryResponse.builder().items(List.of()).build();
            }
            Map<String, AttributeValue> first = matching.get(0);
            QueryResponse.Builder page = QueryResponse.builder().items(List.of(first));
            if (matching.size() > 1) {
                page.lastEvaluatedKey(Map.of("pk", first.get("pk"), "sk", first.get("sk")));
            }
            return page.build();
        }

        @Override
        public GetItemResponse getItem(GetItemRequest request) {
            gets.add(request);
            return GetItemResponse.builder().build();
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {
        }
    }

    private final ListedDynamoDb dynamo = new ListedDynamoDb();
    private final StatsStore store = new StatsStore(dynamo, TABLE, StatsRequestsTest.REGISTRY);

    private static Map<String, AttributeValue> item(String pk, String sk, String type, Object... counters) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", AttributeValue.fromS(pk));
        item.put("sk", AttributeValue.fromS(sk));
        item.put("entityType", AttributeValue.fromS(type));
        for (int i = 0; i < counters.length; i += 2) {
            item.put((String) counters[i], AttributeValue.fromN(counters[i + 1].toString()));
        }
        return item;
    }

    @Test
    void userStats_sumsTheBaseItemAndEveryPartialOverThePages() {
        dynamo.items.add(item("USER#u1", "#STATS#", "UserStats", "posts", 2));
        dynamo.items.add(item("USER#u1", "#STATS#~p~aaaa", "UserStats", "posts", 1, "comments", 5));
        dynamo.items.add(item("USER#u1", "#STATS#~p~bbbb", "UserStats", "comments", -2));
        // Another user's stats, and an item whose sort key merely starts with the stats item's: neither counts.
        dynamo.items.add(item("USER#u2", "#STATS#", "UserStats", "posts", 100));
        dynamo.items.add(item("USER#u1", "#STATS#X", "Other", "posts", 100));

        Map<String, AttributeValue> stats = store.userStats("u1");

        assertThat(stats).containsEntry("posts", AttributeValue.fromN("3"))
                .containsEntry("comments", AttributeValue.fromN("3"))
                .containsEntry("entityType", AttributeValue.fromS("UserStats"))
                .doesNotContainKeys("pk", "sk");
        assertThat(dynamo.queries).hasSizeGreaterThan(1);
        assertThat(dynamo.gets).isEmpty();
    }

    @Test
    void userStats_onlyPartials_areTheStats() {
        dynamo.items.add(item("USER#u1", "#STATS#~p~aaaa", "UserStats", "comments", 4));

        assertThat(store.userStats("u1")).containsEntry("comments", AttributeValue.fromN("4"));
    }

    @Test
    void userStats_nothingCountedAndNoUser_isNotFound() {
        assertThatThrownBy(() -> store.userStats("u1"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThat(dynamo.gets).hasSize(1);
    }

    @Test
    void globalStats_eachSlotWhole_slotsWithNothingLeftOut() {
        dynamo.items.add(item("GLOBAL#STATS#0", "#STATS#~p~aaaa", "GlobalStats", "users", 1));
        dynamo.items.add(item("GLOBAL#STATS#0", "#STATS#~p~cccc", "GlobalStats", "users", 2));
        dynamo.items.add(item("GLOBAL#STATS#2", "#STATS#", "GlobalStats", "users", 10, "items", 7));
        dynamo.items.add(item("GLOBAL#STATS#2", "#STATS#~p~bbbb", "GlobalStats", "items", 1));

        List<Map<String, AttributeValue>> slots = store.globalStats(4);

        assertThat(slots).hasSize(2);
        assertThat(slots.get(0)).containsEntry("users", AttributeValue.fromN("3"));
        assertThat(slots.get(1)).containsEntry("users", AttributeValue.fromN("10"))
                .containsEntry("items", AttributeValue.fromN("8"));
    }
}
