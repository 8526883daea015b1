package io.tally.domains.blog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.store.QueryPage;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code POST} and {@code GET /users/{userId}/posts/{postId}/comments},
 * {@code DELETE /users/{userId}/posts/{postId}/comments/{commentId}}.
 */
final class CommentRoutes {
    static final int TEXT_MAX = 10_000;

    private final RouteContext context;
    private final PostStore posts;
    private final CommentStore comments;

    CommentRoutes(RouteContext context, PostStore posts, CommentStore comments) {
        this.context = context;
        this.posts = posts;
        this.comments = comments;
    }

    void register(Router router) {
        router.add("POST", "/users/{userId}/posts/{postId}/comments", Access.owner("userId"), this::create)
                .add("GET", "/users/{userId}/posts/{postId}/comments", Access.ownerOrAdmin("userId"), this::list)
                .add("DELETE", "/users/{userId}/posts/{postId}/comments/{commentId}", Access.owner("userId"), this::delete);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        Body body = Body.parse(request.body(), Set.of("authorId", "text"));
        String authorId = body.requiredId("authorId");
        String text = body.requiredString("text", 1, TEXT_MAX);
        PostRef ref = posts.locate(userId, postId);
        Comment comment = new Comment(context.ids().next(), postId, ref.userId(), ref.createdAt(), authorId, text,
                context.now());
        comments.create(comment);
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
        QueryPage page = comments.list(posts.locate(userId, postId), limit, start);
        List<ObjectNode> items = page.items().stream()
                .map(item -> BlogJson.comment(Comment.fromItem(item)))
                .toList();
        return ApiResponse.ok(Page.body(items, context.cursors().encode(scope, page.nextKey())));
    }

    ApiResponse delete(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        String commentId = request.id("commentId");
        PostRef ref = posts.locate(userId, postId);
        return ApiResponse.ok(BlogJson.comment(comments.delete(ref, commentId)));
    }
}
