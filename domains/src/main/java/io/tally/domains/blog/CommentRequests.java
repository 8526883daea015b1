package io.tally.domains.blog;

import io.tally.core.Key;
import io.tally.core.TableSchema;
import io.tally.core.store.Requests;
import io.tally.core.users.Users;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;

/** Pure builders of the comment requests; tested by comparing the requests they build. */
final class CommentRequests {
    /** Positions of the actions of {@link #create}, to read the cancellation reasons by. */
    static final int CREATE_POST = 0;
    static final int CREATE_AUTHOR = 1;
    static final int CREATE_COMMENT = 2;

    /** The key attributes of the table, which the comment list's pagination cursors consist of. */
    static final Set<String> LIST_KEY = Set.of(TableSchema.PK, TableSchema.SK);

    private CommentRequests() {
    }

    /**
     * Writes the comment if, at that instant, its post exists and is not deleted and its author exists. The
     * post check returns the post it saw when it fails, to tell a missing post (404) from a deleted one (409).
     */
    static TransactWriteItemsRequest create(String table, Comment comment) {
        Key postKey = new PostRef(comment.postId(), comment.postUserId(), comment.postCreatedAt()).postKey();
        List<TransactWriteItem> actions = new ArrayList<>(3);
        actions.add(CREATE_POST, TransactWriteItem.builder()
                .conditionCheck(ConditionCheck.builder()
                        .tableName(table)
                        .key(postKey.toAttributeMap())
                        .conditionExpression("attribute_exists(pk) AND #status <> :deleted")
                        .expressionAttributeNames(Map.of("#status", Post.STATUS))
                        .expressionAttributeValues(Map.of(":deleted", AttributeValue.fromS(PostStatus.DELETED.value())))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .build())
                .build());
        actions.add(CREATE_AUTHOR, Requests.existsAction(table, Users.key(comment.authorId())));
        actions.add(CREATE_COMMENT, Requests.putNewAction(table, comment.toItem()));
        return TransactWriteItemsRequest.builder().transactItems(actions).build();
    }

    /**
     * One page of a post's comments, oldest first: comment ids are generated time-ordered, so the sort key
     * order is the time order. Asks for one item more than the page so that the last page can say so.
     */
    static QueryRequest list(String table, PostRef post, int limit, Map<String, AttributeValue> exclusiveStartKey) {
        return inPost(table, post, BlogKeys.COMMENT_PREFIX)
                .scanIndexForward(true)
                .limit(limit + 1)
                .exclusiveStartKey(exclusiveStartKey)
                .build();
    }

    /**
     * Finds one comment of a post by id: its sort key also holds its creation time, which the path does not
     * give. The prefix ends with the separator, so one id never matches another that starts with it.
     */
    static QueryRequest find(String table, PostRef post, String commentId) {
        return inPost(table, post, BlogKeys.commentSkPrefix(commentId)).build();
    }

    /** A consistent query of the post's comment partition, for the sort keys that start with {@code prefix}. */
    private static QueryRequest.Builder inPost(String table, PostRef post, String prefix) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :prefix)")
                .expressionAttributeValues(Map.of(
                        ":pk", AttributeValue.fromS(BlogKeys.commentsPk(post.postId(), post.createdAt())),
                        ":prefix", AttributeValue.fromS(prefix)))
                .consistentRead(true);
    }

    /** A hard delete; the condition turns a delete that lost the race against another delete into a 404. */
    static DeleteItemRequest delete(String table, Key commentKey) {
        return DeleteItemRequest.builder()
                .tableName(table)
                .key(commentKey.toAttributeMap())
                .conditionExpression("attribute_exists(pk)")
                .returnValues(ReturnValue.ALL_OLD)
                .build();
    }
}
