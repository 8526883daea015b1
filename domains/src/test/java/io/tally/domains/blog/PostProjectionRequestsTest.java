package io.tally.domains.blog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.MalformedItemException;
import io.tally.core.TableDefinition;
import io.tally.core.read.ShardMerge.Position;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

class PostProjectionRequestsTest {
    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }

    /** The attribute names a projection expression asks for, its placeholders resolved. */
    private static List<String> projected(String expression, Map<String, String> names) {
        return Stream.of(expression.split(", ")).map(names::get).toList();
    }

    @Test
    void postStats_readsTheProjectionsCommentCount() {
        var request = PostProjectionRequests.postStats("t", "p1");
        assertThat(request.key()).isEqualTo(Map.of("pk", s("POSTREF#p1"), "sk", s("#PROJECTION#")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames()))
                .containsExactly("entityType", "comments");
    }

    @Test
    void postRef_readsOnlyTheKeyOfThePostRef() {
        var request = PostProjectionRequests.postRef("t", "p1");
        assertThat(request.key()).isEqualTo(Map.of("pk", s("POSTREF#p1"), "sk", s("#POSTREF#")));
        assertThat(projected(request.projectionExpression(), request.expressionAttributeNames())).containsExactly("pk");
    }

    @Test
    void postsByStatus_firstPage_queriesTheShardNewestFirstWithOneExtraItem() {
        QueryRequest request = PostProjectionRequests.postsByStatus("t", PostStatus.UPDATED, 3, 25, null);
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
                "entityType", "postId", "userId", "title", "status", "createdAt", "updatedAt", "pk", "statusPostedAt");
    }

    @Test
    void postsByStatus_asksOnlyForWhatTheIndexProjects() {
        var index = io.tally.core.TableDefinition.createTableRequest("t").globalSecondaryIndexes().stream()
                .filter(i -> i.indexName().equals("PostsByStatus")).findFirst().orElseThrow();
        List<String> available = Stream.concat(Stream.of("pk", "sk", "statusShard", "statusPostedAt"),
                index.projection().nonKeyAttributes().stream()).toList();
        assertThat(PostProjectionRequests.POST_ATTRIBUTES).isSubsetOf(available).doesNotContain("comments");
    }

    @Test
    void counts_readThePagesCommentCountsFromTheTable_andMergeThemByKey() {
        Map<String, AttributeValue> p1 = Map.of("pk", s("POSTREF#p1"), "postId", s("p1"));
        Map<String, AttributeValue> p2 = Map.of("pk", s("POSTREF#p2"), "postId", s("p2"));
        assertThat(PostProjectionRequests.counted(List.of(p1, p2))).containsExactly(
                new Key("POSTREF#p1", "#PROJECTION#"), new Key("POSTREF#p2", "#PROJECTION#"));
        assertThat(PostProjectionRequests.COUNT_ATTRIBUTES).containsExactly("pk", "comments");
        assertThat(PostProjectionRequests.counted(List.of())).isEmpty();

        // p2 was not returned (removed since the query): it keeps no counter, which the route renders as zero.
        var merged = PostProjectionRequests.withCounts(List.of(p1, p2),
                List.of(Map.of("pk", s("POSTREF#p1"), "comments", AttributeValue.fromN("3"))));
        assertThat(merged.get(0)).containsEntry("comments", AttributeValue.fromN("3")).containsEntry("postId", s("p1"));
        assertThat(merged.get(1)).isEqualTo(p2);
    }

    @Test
    void postsByStatus_afterAPosition_startsAfterThatProjectionInThatShard() {
        QueryRequest request = PostProjectionRequests.postsByStatus("t", PostStatus.CREATED, 1, 2,
                new Position("2026-11-22T10:00:00.123Z", "p7"));
        assertThat(request.limit()).isEqualTo(3);
        assertThat(request.exclusiveStartKey()).isEqualTo(Map.of(
                "pk", s("POSTREF#p7"), "sk", s("#PROJECTION#"),
                "statusShard", s("POSTS#created#1"), "statusPostedAt", s("2026-11-22T10:00:00.123Z#p7")));
    }

    @Test
    void statusScope_otherStatusOrShardCount_differs() {
        assertThat(Stream.of(PostProjectionRequests.statusScope(PostStatus.CREATED, 4),
                PostProjectionRequests.statusScope(PostStatus.UPDATED, 4),
                PostProjectionRequests.statusScope(PostStatus.CREATED, 5))).doesNotHaveDuplicates();
    }

    @Test
    void postPosition_itemAndLastEvaluatedKey_giveTheSamePosition() {
        Map<String, AttributeValue> key = Map.of("pk", s("POSTREF#p7"), "sk", s("#PROJECTION#"),
                "statusShard", s("POSTS#created#1"), "statusPostedAt", s("2026-11-22T10:00:00.123Z#p7"));
        Position position = new Position("2026-11-22T10:00:00.123Z", "p7");
        assertThat(PostProjectionRequests.postPosition(key)).isEqualTo(position);
        assertThat(PostProjectionRequests.postStartKey("POSTS#created#1", position)).isEqualTo(key);
    }

    @Test
    void postPosition_postedAtOfAnotherPost_isMalformed() {
        assertThatThrownBy(() -> PostProjectionRequests.postPosition(Map.of("pk", s("POSTREF#p7"),
                "statusPostedAt", s("2026-11-22T10:00:00.123Z#p8")))).isInstanceOf(MalformedItemException.class);
    }

    @Test
    void isValidPostPosition_acceptsOnlyWhatAProjectionGives() {
        assertThat(PostProjectionRequests.isValidPostPosition(new Position("2026-11-22T10:00:00.123Z", "p1"))).isTrue();
        assertThat(PostProjectionRequests.isValidPostPosition(new Position("2026-11-22T10:00:00Z", "p1"))).isFalse();
        assertThat(PostProjectionRequests.isValidPostPosition(new Position("yesterday", "p1"))).isFalse();
        assertThat(PostProjectionRequests.isValidPostPosition(new Position("2026-11-22T10:00:00.123Z", "p#1"))).isFalse();
        assertThat(PostProjectionRequests.isValidPostPosition(new Position("2026-11-22T10:00:00.123Z", ""))).isFalse();
    }

    @Test
    void postsOrder_newestFirst_tiesByIdDescending() {
        assertThat(Stream.of(new Position("2026-01-01T00:00:00.000Z", "a"), new Position("2026-01-02T00:00:00.000Z", "a"),
                new Position("2026-01-01T00:00:00.000Z", "b")).sorted(PostProjectionRequests.POSTS_ORDER))
                .extracting(Position::id).containsExactly("a", "b", "a");
    }
}
