package io.tally.domains.blog;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.users.Users;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

class CommentRequestsTest {
    private static final String TABLE = "tally";
    private static final Instant POST_CREATED = Instant.parse("2024-05-01T10:00:00.123Z");
    private static final Instant NOW = Instant.parse("2024-05-02T11:30:00.000Z");
    private static final PostRef POST = new PostRef("p1", "u1", POST_CREATED);
    private static final Comment COMMENT =
            new Comment("c1", "p1", "u1", POST_CREATED, "a1", "Nice post", NOW);
    private static final String COMMENTS_PK = "POST#p1#2024-05-01T10:00:00.123Z";

    @Test
    void create_newComment_checksLivePostAndAuthorAndPutsCommentInOneTransaction() {
        TransactWriteItemsRequest expected = TransactWriteItemsRequest.builder()
                .transactItems(
                        TransactWriteItem.builder().conditionCheck(ConditionCheck.builder()
                                .tableName(TABLE)
                                .key(Map.of("pk", s("USER#u1"), "sk", s("POST#p1#2024-05-01T10:00:00.123Z")))
                                .conditionExpression("attribute_exists(pk) AND #status <> :deleted")
                                .expressionAttributeNames(Map.of("#status", "status"))
                                .expressionAttributeValues(Map.of(":deleted", s("deleted")))
                                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                                .build()).build(),
                        TransactWriteItem.builder().conditionCheck(ConditionCheck.builder()
                                .tableName(TABLE)
                                .key(Users.key("a1").toAttributeMap())
                                .conditionExpression("attribute_exists(pk)")
                                .build()).build(),
                        TransactWriteItem.builder().put(Put.builder()
                                .tableName(TABLE)
                                .item(COMMENT.toItem())
                                .conditionExpression("attribute_not_exists(pk)")
                                .build()).build())
                .build();

        assertThat(CommentRequests.create(TABLE, COMMENT)).isEqualTo(expected);
    }

    @Test
    void create_actionPositions_matchTheConstantsUsedToReadCancellationReasons() {
        TransactWriteItemsRequest request = CommentRequests.create(TABLE, COMMENT);

        assertThat(request.transactItems().get(CommentRequests.CREATE_POST).conditionCheck().key())
                .isEqualTo(POST.postKey().toAttributeMap());
        assertThat(request.transactItems().get(CommentRequests.CREATE_AUTHOR).conditionCheck().key())
                .isEqualTo(Users.key("a1").toAttributeMap());
        assertThat(request.transactItems().get(CommentRequests.CREATE_COMMENT).put().item())
                .isEqualTo(COMMENT.toItem());
    }

    @Test
    void list_firstPage_queriesThePostsCommentPartitionOldestFirstWithOneExtraItem() {
        QueryRequest expected = QueryRequest.builder()
                .tableName(TABLE)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", s(COMMENTS_PK), ":prefix", s("COMMENT#")))
                .scanIndexForward(true)
                .consistentRead(true)
                .limit(11)
                .build();

        QueryRequest request = CommentRequests.list(TABLE, POST, 10, null);

        assertThat(request).isEqualTo(expected);
        assertThat(request.indexName()).isNull();
        assertThat(request.hasExclusiveStartKey()).isFalse();
    }

    @Test
    void list_withStartKey_continuesAfterIt() {
        Map<String, AttributeValue> start = Map.of("pk", s(COMMENTS_PK), "sk", s("COMMENT#c1#2024-05-02T11:30:00.000Z"));

        assertThat(CommentRequests.list(TABLE, POST, 2, start).exclusiveStartKey()).isEqualTo(start);
        assertThat(CommentRequests.LIST_KEY).containsExactlyInAnyOrder("pk", "sk");
    }

    @Test
    void find_commentId_matchesTheIdUpToItsSeparator() {
        QueryRequest expected = QueryRequest.builder()
                .tableName(TABLE)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(":pk", s(COMMENTS_PK), ":prefix", s("COMMENT#c1#")))
                .consistentRead(true)
                .build();

        assertThat(CommentRequests.find(TABLE, POST, "c1")).isEqualTo(expected);
    }

    @Test
    void delete_commentKey_deletesOnlyAnExistingItemAndReturnsIt() {
        DeleteItemRequest expected = DeleteItemRequest.builder()
                .tableName(TABLE)
                .key(Map.of("pk", s(COMMENTS_PK), "sk", s("COMMENT#c1#2024-05-02T11:30:00.000Z")))
                .conditionExpression("attribute_exists(pk)")
                .returnValues(ReturnValue.ALL_OLD)
                .build();

        assertThat(CommentRequests.delete(TABLE, COMMENT.key())).isEqualTo(expected);
    }

    private static AttributeValue s(String value) {
        return AttributeValue.fromS(value);
    }
}
