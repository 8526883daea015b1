package io.tally.domains.blog;

import io.tally.core.Key;
import io.tally.core.http.ApiException;
import io.tally.core.store.QueryPage;
import io.tally.core.store.Transactions;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Where a cancelled comment transaction becomes the client's answer: its reasons come by the action positions
 * that {@link CommentRequests} fixes, so they are read next to it.
 */
record CommentStore(DynamoDbClient dynamo, String table) {
    /** Writes the comment of a located post; see {@link #cancelled} for the refusals. */
    void create(Comment comment) {
        try {
            Transactions.write(dynamo, CommentRequests.create(table, comment));
        } catch (TransactionCanceledException e) {
            throw cancelled(e, comment);
        }
    }

    QueryPage list(PostRef post, int limit, Map<String, AttributeValue> start) {
        return QueryPage.of(dynamo.query(CommentRequests.list(table, post, limit, start)), limit,
                CommentRequests.LIST_KEY);
    }

    /**
     * The comment as it was before the hard delete; a comment not there (any more) is {@code not_found}.
     * {@code mayDelete} sees the comment first and throws to keep it (a caller who may not delete it); a comment never
     * changes, so what it saw is what goes.
     */
    Comment delete(PostRef post, String commentId, Consumer<Comment> mayDelete) {
        List<Map<String, AttributeValue>> found = dynamo.query(CommentRequests.find(table, post, commentId)).items();
        if (found.isEmpty()) {
            throw notFound(post.postId(), commentId);
        }
        mayDelete.accept(Comment.fromItem(found.get(0)));
        try {
            return Comment.fromItem(dynamo.deleteItem(CommentRequests.delete(table, Key.of(found.get(0)))).attributes());
        } catch (ConditionalCheckFailedException e) {
            throw notFound(post.postId(), commentId);
        }
    }

    /**
     * A missing post or author is a 404 before a deleted post is a 409: what does not exist cannot be in
     * conflict.
     */
    static RuntimeException cancelled(TransactionCanceledException e, Comment comment) {
        boolean postFailed = Transactions.conditionFailed(e, CommentRequests.CREATE_POST);
        Map<String, AttributeValue> post = Transactions.oldItem(e, CommentRequests.CREATE_POST);
        if (postFailed && post == null) {
            return PostStore.notFound(comment.postUserId(), comment.postId());
        }
        if (Transactions.conditionFailed(e, CommentRequests.CREATE_AUTHOR)) {
            return ApiException.notFound("author '" + comment.authorId() + "' does not exist");
        }
        if (postFailed && Post.fromItem(post).status() == PostStatus.DELETED) {
            return ApiException.conflict("post '" + comment.postId() + "' is deleted");
        }
        return e;
    }

    private static ApiException notFound(String postId, String commentId) {
        return ApiException.notFound("post '" + postId + "' has no comment '" + commentId + "'");
    }
}
