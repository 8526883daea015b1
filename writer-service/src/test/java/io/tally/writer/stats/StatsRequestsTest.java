package io.tally.writer.stats;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;

class StatsRequestsTest {
    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** The attribute names a projection expression asks for, its placeholders resolved. */
    private static List<String> projected(String expression, Map<String, String> names) {
        return Stream.of(expression.split(", ")).map(names::get).toList();
    }

    @Test
    void userStats_readsTheStatsItemsCountersConsistently() {
        var request = StatsRequests.userStats("t", "u1");
        assertThat(request.tableName()).isEqualTo("t");
        assertThat(request.key()).isEqualTo(Map.of("pk", s("USER#u1"), "sk", s("#STATS#")));
        assertThat(request.consistentRead()).isTrue();
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly(
                "entityType", "posts", "comments", "completed", "correctGuesses", "liveCompleted", "assigned",
                "inProgress", "orphaned");
    }

    @Test
    void user_readsOnlyTheKeyOfTheUserItem() {
        var request = StatsRequests.user("t", "u1");
        assertThat(request.key()).isEqualTo(Map.of("pk", s("USER#u1"), "sk", s("#METADATA#u1")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly("pk");
        assertThat(request.consistentRead()).isTrue();
    }

    @Test
    void globalStats_asksForEveryShardInOneBatch() {
        BatchGetItemRequest request = StatsRequests.globalStats("t", 4);
        KeysAndAttributes keys = request.requestItems().get("t");
        assertThat(request.requestItems()).containsOnlyKeys("t");
        assertThat(keys.keys()).containsExactly(
                Map.of("pk", s("GLOBAL#STATS#0"), "sk", s("#STATS#")),
                Map.of("pk", s("GLOBAL#STATS#1"), "sk", s("#STATS#")),
                Map.of("pk", s("GLOBAL#STATS#2"), "sk", s("#STATS#")),
                Map.of("pk", s("GLOBAL#STATS#3"), "sk", s("#STATS#")));
        assertThat(keys.consistentRead()).isTrue();
        assertThat(projected(keys.projectionExpression(), keys.expressionAttributeNames())).containsExactly(
                "entityType", "users", "postsCreated", "postsUpdated", "postsDeleted", "comments", "items", "completed",
                "orgs", "employees", "downloads", "favourites");
    }

    @Test
    void globalStats_hundredShards_fitOneBatch() {
        assertThat(StatsRequests.globalStats("t", ShardSettings.MAX).requestItems().get("t").keys()).hasSize(100);
    }

    @Test
    void unprocessed_someKeysLeft_asksForExactlyThose() {
        KeysAndAttributes left = StatsRequests.globalStats("t", 4).requestItems().get("t").toBuilder()
                .keys(Map.of("pk", s("GLOBAL#STATS#2"), "sk", s("#STATS#"))).build();
        BatchGetItemResponse response = BatchGetItemResponse.builder().unprocessedKeys(Map.of("t", left)).build();

        BatchGetItemRequest next = StatsRequests.unprocessed(response);

        assertThat(next.requestItems()).isEqualTo(Map.of("t", left));
    }

    @Test
    void unprocessed_noneLeft_isNull() {
        assertThat(StatsRequests.unprocessed(BatchGetItemResponse.builder().build())).isNull();
        assertThat(StatsRequests.unprocessed(BatchGetItemResponse.builder().unprocessedKeys(Map.of()).build())).isNull();
        assertThat(StatsRequests.unprocessed(BatchGetItemResponse.builder()
                .unprocessedKeys(Map.of("t", KeysAndAttributes.builder().keys(List.of()).build())).build())).isNull();
    }
}
