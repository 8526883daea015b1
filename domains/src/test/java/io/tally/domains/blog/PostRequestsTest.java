package io.tally.domains.blog;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.http.IfMatch;
import io.tally.core.users.Users;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

class PostRequestsTest {
    private static final String TABLE = "tally";
    private static final Instant CREATED = Instant.parse("2024-05-01T10:00:00.123Z");
    private static final Instant NOW = Instant.parse("2024-05-02T11:30:00.000Z");
    private static final Post POST =
            new Post("p1", "u1", "Title", "Body", PostStatus.CREATED, CREATED, CREATED, 1);
    private static final Key POST_KEY = BlogKeys.post("u1", "p1", CREATED);

    @Test
    void create_newPost_reservesRefChecksUserAndPutsPostInOneTransaction() {
        TransactWriteItemsRequest expected = TransactWriteItemsRequest.builder()
                .transactItems(
                        TransactWriteItem.builder().put(Put.builder()
                                .tableName(TABLE)
                                .item(new PostRef("p1", "u1", CREATED).toItem())
                                .conditionExpression("attribute_not_exists(pk)")
                                .build()).build(),
                        TransactWriteItem.builder().conditionCheck(ConditionCheck.builder()
                                .tableName(TABLE)
                                .key(Users.key("u1").toAttributeMap())
                                .conditionExpression("attribute_exists(pk)")
                                .build()).build(),
                        TransactWriteItem.builder().put(Put.builder()
                                .tableName(TABLE)
                                .item(POST.toItem())
                                .conditionExpression("attribute_not_exists(pk)")
                                .build()).build())
                .build();

        assertThat(PostRequests.create(TABLE, POST)).isEqualTo(expected);
    }

    @Test
    void create_actionPositions_matchTheConstantsUsedToReadCancellationReasons() {
        TransactWriteItemsRequest request = PostRequests.create(TABLE, POST);

        assertThat(request.transactItems().get(PostRequests.CREATE_REF).put().item().get(TableSchema.PK).s())
                .isEqualTo(BlogKeys.postRef("p1").pk());
        assertThat(request.transactItems().get(PostRequests.CREATE_USER).conditionCheck().key())
                .isEqualTo(Users.key("u1").toAttributeMap());
        assertThat(request.transactItems().get(PostRequests.CREATE_POST).put().item().get(TableSchema.SK).s())
                .isEqualTo("POST#p1#2024-05-01T10:00:00.123Z");
    }

    @Test
    void getRefAndGet_anyPost_readConsistentlyByKey() {
        assertThat(PostRequests.getRef(TABLE, "p1")).isEqualTo(GetItemRequest.builder()
                .tableName(TABLE)
                .key(Map.of("pk", s("POSTREF#p1"), "sk", s("#POSTREF#")))
                .consistentRead(true)
                .build());
        assertThat(PostRequests.get(TABLE, POST_KEY)).isEqualTo(GetItemRequest.builder()
                .tableName(TABLE)
                .key(Map.of("pk", s("USER#u1"), "sk", s("POST#p1#2024-05-01T10:00:00.123Z")))
                .consistentRead(true)
                .build());
    }

    @Test
    void update_titleAndBodyWithIfMatch_setsFieldsStatusAndGuardsDeletedAndVersion() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName(TABLE)
                .key(POST_KEY.toAttributeMap())
                .updateExpression("SET #title = :title, #body = :body, #status = :updated, updatedAt = :now, "
                        + "version = version + :one")
                .conditionExpression("attribute_exists(pk) AND #status <> :deleted AND version = :expected")
                .expressionAttributeNames(Map.of("#title", "title", "#body", "body", "#status", "status"))
                .expressionAttributeValues(Map.of(
                        ":title", s("New title"),
                        ":body", s("New body"),
                        ":updated", s("updated"),
                        ":deleted", s("deleted"),
                        ":now", s("2024-05-02T11:30:00.000Z"),
                        ":one", AttributeValue.fromN("1"),
                        ":expected", AttributeValue.fromN("3")))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();

        assertThat(PostRequests.update(TABLE, POST_KEY, "New title", "New body", NOW, new IfMatch(true, 3L)))
                .isEqualTo(expected);
    }

    @Test
    void update_titleOnlyWithoutIfMatch_leavesBodyAndVersionUnchecked() {
        UpdateItemRequest request = PostRequests.update(TABLE, POST_KEY, "New title", null, NOW, IfMatch.NONE);

        assertThat(request.updateExpression())
                .isEqualTo("SET #title = :title, #status = :updated, updatedAt = :now, version = version + :one");
        assertThat(request.conditionExpression()).isEqualTo("attribute_exists(pk) AND #status <> :deleted");
        assertThat(request.expressionAttributeNames()).containsOnlyKeys("#title", "#status");
        assertThat(request.expressionAttributeValues()).containsOnlyKeys(":title", ":updated", ":deleted", ":now", ":one");
    }

    @Test
    void update_ifMatchAny_requiresOnlyAnExistingLivePost() {
        UpdateItemRequest request = PostRequests.update(TABLE, POST_KEY, null, "b", NOW, IfMatch.ANY);

        assertThat(request.conditionExpression()).isEqualTo("attribute_exists(pk) AND #status <> :deleted");
        assertThat(request.expressionAttributeValues()).doesNotContainKey(":expected");
    }

    @Test
    void delete_withIfMatch_softDeletesUnderTheSameConditionsAsAnUpdate() {
        UpdateItemRequest expected = UpdateItemRequest.builder()
                .tableName(TABLE)
                .key(POST_KEY.toAttributeMap())
                .updateExpression("SET #status = :deleted, updatedAt = :now, version = version + :one")
                .conditionExpression("attribute_exists(pk) AND #status <> :deleted AND version = :expected")
                .expressionAttributeNames(Map.of("#status", "status"))
                .expressionAttributeValues(Map.of(
                        ":deleted", s("deleted"),
                        ":now", s("2024-05-02T11:30:00.000Z"),
                        ":one", AttributeValue.fromN("1"),
                        ":expected", AttributeValue.fromN("2")))
                .returnValues(ReturnValue.ALL_NEW)
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                .build();

        assertThat(PostRequests.delete(TABLE, POST_KEY, NOW, new IfMatch(true, 2L))).isEqualTo(expected);
    }

    @Test
    void list_firstPage_queriesTheTimeIndexNewestFirstWithOneExtraItem() {
        QueryRequest expected = QueryRequest.builder()
                .tableName(TABLE)
                .indexName(TableSchema.POSTS_BY_TIME_INDEX)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s("USER#u1")))
                .scanIndexForward(false)
                .consistentRead(true)
                .limit(26)
                .build();

        QueryRequest request = PostRequests.list(TABLE, "u1", 25, null);

        assertThat(request).isEqualTo(expected);
        assertThat(request.hasExclusiveStartKey()).isFalse();
    }

    @Test
    void list_withStartKey_continuesAfterIt() {
        Map<String, AttributeValue> start = Map.of("pk", s("USER#u1"), "sk", s("POST#p1#2024-05-01T10:00:00.123Z"),
                "postedAt", s("2024-05-01T10:00:00.123Z#p1"));

        QueryRequest request = PostRequests.list(TABLE, "u1", 2, start);

        assertThat(request.exclusiveStartKey()).isEqualTo(start);
        assertThat(request.limit()).isEqualTo(3);
        assertThat(PostRequests.LIST_KEY).containsExactlyInAnyOrder("pk", "sk", "postedAt");
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
