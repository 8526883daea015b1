package io.tally.writer.blog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.Key;
import io.tally.core.blog.Comment;
import io.tally.core.blog.Post;
import io.tally.core.blog.PostRef;
import io.tally.core.blog.PostStatus;
import io.tally.writer.RouteContext;
import io.tally.writer.http.ApiException;
import io.tally.writer.http.ApiRequest;
import io.tally.writer.http.ApiResponse;
import io.tally.writer.http.Body;
import io.tally.writer.http.Page;
import io.tally.writer.http.Router;
import io.tally.writer.store.QueryPage;
import io.tally.writer.store.Transactions;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * {@code POST} and {@code GET /users/{userId}/posts/{postId}/comments},
 * {@code DELETE /users/{userId}/posts/{postId}/comments/{commentId}}.
 */
public final class CommentRoutes {
    static final int TEXT_MAX = 10_000;

    private final RouteContext context;

    public CommentRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
        router.add("POST", "/users/{userId}/posts/{postId}/comments", this::create)
                .add("GET", "/users/{userId}/posts/{postId}/comments", this::list)
                .add("DELETE", "/users/{userId}/posts/{postId}/comments/{commentId}", this::delete);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        Body body = Body.parse(request.body(), Set.of("authorId", "text"));
        String authorId = body.requiredId("authorId");
        String text = body.requiredString("text", 1, TEXT_MAX);
        PostRef ref = PostRoutes.locate(context, userId, postId);
        Comment comment = new Comment(context.ids().next(), postId, ref.userId(), ref.createdAt(), authorId, text,
                context.now());
        try {
            Transactions.write(context.dynamo(), CommentRequests.create(context.table(), comment));
        } catch (TransactionCanceledException e) {
            throw cancelled(e, userId, postId, authorId);
        }
        return ApiResponse.created(BlogJson.comment(comment),
                "/users/" + userId + "/posts/" + postId + "/comments/" + comment.commentId());
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        int limit = Page.limit(request);
        String scope = "comments:" + postId;
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), CommentRequests.LIST_KEY);
        PostRef ref = PostRoutes.locate(context, userId, postId);
        QueryPage page = QueryPage.of(
                context.dynamo().query(CommentRequests.list(context.table(), ref, limit, start)),
                limit, CommentRequests.LIST_KEY);
        List<ObjectNode> comments = page.items().stream()
                .map(item -> BlogJson.comment(Comment.fromItem(item)))
                .toList();
        return ApiResponse.ok(Page.body(comments, context.cursors().encode(scope, page.nextKey())));
    }

    ApiResponse delete(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        String commentId = request.id("commentId");
        PostRef ref = PostRoutes.locate(context, userId, postId);
        List<Map<String, AttributeValue>> found =
                context.dynamo().query(CommentRequests.find(context.table(), ref, commentId)).items();
        if (found.isEmpty()) {
            throw notFound(postId, commentId);
        }
        Map<String, AttributeValue> deleted;
        try {
            deleted = context.dynamo().deleteItem(CommentRequests.delete(context.table(), Key.of(found.get(0)))).attributes();
        } catch (ConditionalCheckFailedException e) {
            throw notFound(postId, commentId);
        }
        return ApiResponse.ok(BlogJson.comment(Comment.fromItem(deleted)));
    }

    /**
     * A missing post or author is a 404 before a deleted post is a 409: what does not exist cannot be in
     * conflict.
     */
    private static RuntimeException cancelled(TransactionCanceledException e, String userId, String postId,
                                              String authorId) {
        boolean postFailed = Transactions.conditionFailed(e, CommentRequests.CREATE_POST);
        Map<String, AttributeValue> post = Transactions.oldItem(e, CommentRequests.CREATE_POST);
        if (postFailed && post == null) {
            return PostRoutes.notFound(userId, postId);
        }
        if (Transactions.conditionFailed(e, CommentRequests.CREATE_AUTHOR)) {
            return ApiException.notFound("author '" + authorId + "' does not exist");
        }
        if (postFailed && Post.fromItem(post).status() == PostStatus.DELETED) {
            return ApiException.conflict("post '" + postId + "' is deleted");
        }
        return e;
    }

    private static ApiException notFound(String postId, String commentId) {
        return ApiException.notFound("post '" + postId + "' has no comment '" + commentId + "'");
    }
}
