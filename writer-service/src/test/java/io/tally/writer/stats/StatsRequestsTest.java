package io.tally.writer.stats;

import io.tally.core.ShardSettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.MalformedItemException;
import io.tally.core.blog.PostStatus;
import io.tally.writer.stats.ShardMerge.Position;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

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
    void postStats_readsTheProjectionsCommentCount() {
        var request = StatsRequests.postStats("t", "p1");
        assertThat(request.key()).isEqualTo(Map.of("pk", s("POSTREF#p1"), "sk", s("#PROJECTION#")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames()))
                .containsExactly("entityType", "comments");
    }

    @Test
    void postRef_readsOnlyTheKeyOfThePostRef() {
        var request = StatsRequests.postRef("t", "p1");
        assertThat(request.key()).isEqualTo(Map.of("pk", s("POSTREF#p1"), "sk", s("#POSTREF#")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly("pk");
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
                "entityType", "users", "postsCreated", "postsUpdated", "postsDeleted", "comments", "items", "completed");
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

    @Test
    void postsByStatus_firstPage_queriesTheShardNewestFirstWithOneExtraItem() {
        QueryRequest request = StatsRequests.postsByStatus("t", PostStatus.UPDATED, 3, 25, null);
        assertThat(request.indexName()).isEqualTo("PostsByStatus");
        assertThat(request.keyConditionExpression()).isEqualTo("#partition = :partition");
        assertThat(request.expressionAttributeNames()).containsEntry("#partition", "statusShard");
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":partition", s("POSTS#updated#3")));
        assertThat(request.scanIndexForward()).isFalse();
        assertThat(request.limit()).isEqualTo(26);
        // A global secondary index cannot be read consistently.
        assertThat(request.consistentRead()).isNull();
        assertThat(request.hasExclusiveStartKey()).isFalse();
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly(
                "entityType", "postId", "userId", "title", "status", "createdAt", "updatedAt", "comments", "pk", "statusPostedAt");
    }

    @Test
    void postsByStatus_afterAPosition_startsAfterThatProjectionInThatShard() {
        QueryRequest request = StatsRequests.postsByStatus("t", PostStatus.CREATED, 1, 2,
                new Position("2026-11-22T10:00:00.123Z", "p7"));
        assertThat(request.limit()).isEqualTo(3);
        assertThat(request.exclusiveStartKey()).isEqualTo(Map.of(
                "pk", s("POSTREF#p7"), "sk", s("#PROJECTION#"),
                "statusShard", s("POSTS#created#1"), "statusPostedAt", s("2026-11-22T10:00:00.123Z#p7")));
    }

    @Test
    void selector_afterAPosition_startsAfterThatEntryInThatPartition() {
        QueryRequest request = StatsRequests.selector("t", "back-catalogue:2", 10, new Position("70", "item-5"));
        assertThat(request.indexName()).isEqualTo("CycleSelector");
        assertThat(request.expressionAttributeNames()).containsEntry("#partition", "selector");
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":partition", s("back-catalogue:2")));
        assertThat(request.scanIndexForward()).isFalse();
        assertThat(request.limit()).isEqualTo(11);
        assertThat(request.exclusiveStartKey()).isEqualTo(Map.of(
                "pk", s("ITEM#item-5"), "sk", s("#SELECTOR#"),
                "selector", s("back-catalogue:2"), "data", AttributeValue.fromN("70")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames()))
                .containsExactly("entityType", "itemId", "title", "score", "pk", "data");
    }

    @Test
    void selectorPartitions_backCatalogue_isEveryShard() {
        assertThat(StatsRequests.selectorPartitions("back-catalogue", 4))
                .containsExactly("back-catalogue:0", "back-catalogue:1", "back-catalogue:2", "back-catalogue:3");
    }

    @Test
    void selectorPartitions_cycle_isOnePartition() {
        assertThat(StatsRequests.selectorPartitions("global-cycle:3", 4)).containsExactly("global-cycle:3");
        assertThat(StatsRequests.selectorPartitions("user-cycle:0", 4)).containsExactly("user-cycle:0");
    }

    @Test
    void scopes_differPerListAndShardCount() {
        assertThat(Stream.of(
                StatsRequests.statusScope(PostStatus.CREATED, 4), StatsRequests.statusScope(PostStatus.UPDATED, 4),
                StatsRequests.statusScope(PostStatus.CREATED, 5), StatsRequests.selectorScope("back-catalogue", 4),
                StatsRequests.selectorScope("global-cycle:1", 1), StatsRequests.selectorScope("global-cycle:11", 1)))
                .doesNotHaveDuplicates();
    }

    @Test
    void postPosition_itemAndLastEvaluatedKey_giveTheSamePosition() {
        Map<String, AttributeValue> key = Map.of("pk", s("POSTREF#p7"), "sk", s("#PROJECTION#"),
                "statusShard", s("POSTS#created#1"), "statusPostedAt", s("2026-11-22T10:00:00.123Z#p7"));
        Position position = new Position("2026-11-22T10:00:00.123Z", "p7");
        assertThat(StatsRequests.postPosition(key)).isEqualTo(position);
        assertThat(StatsRequests.postStartKey("POSTS#created#1", position)).isEqualTo(key);
    }

    @Test
    void postPosition_postedAtOfAnotherPost_isMalformed() {
        assertThatThrownBy(() -> StatsRequests.postPosition(Map.of("pk", s("POSTREF#p7"),
                "statusPostedAt", s("2026-11-22T10:00:00.123Z#p8")))).isInstanceOf(MalformedItemException.class);
    }

    @Test
    void selectorPosition_itemAndLastEvaluatedKey_giveTheSamePosition() {
        Map<String, AttributeValue> key = Map.of("pk", s("ITEM#i1"), "sk", s("#SELECTOR#"),
                "selector", s("back-catalogue:0"), "data", AttributeValue.fromN("42"));
        Position position = new Position("42", "i1");
        assertThat(StatsRequests.selectorPosition(key)).isEqualTo(position);
        assertThat(StatsRequests.selectorStartKey("back-catalogue:0", position)).isEqualTo(key);
    }

    @Test
    void read_lastEvaluatedKey_becomesThePositionToResumeFrom() {
        Map<String, AttributeValue> item = Map.of("pk", s("ITEM#i1"), "data", AttributeValue.fromN("42"));
        var more = StatsRequests.read(QueryResponse.builder().items(item).lastEvaluatedKey(item).build(),
                StatsRequests::selectorPosition);
        var last = StatsRequests.read(QueryResponse.builder().items(item).build(), StatsRequests::selectorPosition);
        assertThat(more.items()).containsExactly(item);
        assertThat(more.lastEvaluated()).isEqualTo(new Position("42", "i1"));
        assertThat(last.lastEvaluated()).isNull();
    }

    @Test
    void isValidPostPosition_acceptsOnlyWhatAProjectionGives() {
        assertThat(StatsRequests.isValidPostPosition(new Position("2026-11-22T10:00:00.123Z", "p1"))).isTrue();
        assertThat(StatsRequests.isValidPostPosition(new Position("2026-11-22T10:00:00Z", "p1"))).isFalse();
        assertThat(StatsRequests.isValidPostPosition(new Position("yesterday", "p1"))).isFalse();
        assertThat(StatsRequests.isValidPostPosition(new Position("2026-11-22T10:00:00.123Z", "p#1"))).isFalse();
        assertThat(StatsRequests.isValidPostPosition(new Position("2026-11-22T10:00:00.123Z", ""))).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "-1", "01", "1.5", "1e3", " 1", "9999999999999999999"})
    void isValidSelectorPosition_scoreNotAPlainWholeNumber_isInvalid(String score) {
        assertThat(StatsRequests.isValidSelectorPosition(new Position(score, "i1"))).isFalse();
    }

    @Test
    void isValidSelectorPosition_acceptsOnlyWhatAnEntryGives() {
        assertThat(StatsRequests.isValidSelectorPosition(new Position("0", "i1"))).isTrue();
        assertThat(StatsRequests.isValidSelectorPosition(new Position("1000000000", "i1"))).isTrue();
        assertThat(StatsRequests.isValidSelectorPosition(new Position("5", "a:b"))).isFalse();
    }

    @Test
    void orders_newestOrHighestFirstTiesByIdDescending() {
        assertThat(Stream.of(new Position("2026-01-01T00:00:00.000Z", "a"), new Position("2026-01-02T00:00:00.000Z", "a"),
                new Position("2026-01-01T00:00:00.000Z", "b")).sorted(StatsRequests.POSTS_ORDER))
                .extracting(Position::id).containsExactly("a", "b", "a");
        assertThat(Stream.of(new Position("9", "a"), new Position("10", "a"), new Position("9", "b"))
                .sorted(StatsRequests.SELECTOR_ORDER))
                .containsExactly(new Position("10", "a"), new Position("9", "b"), new Position("9", "a"));
    }
}
