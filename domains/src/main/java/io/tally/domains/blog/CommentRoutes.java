package io.tally.domains.blog;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Router;
import java.util.Set;

/**
 * {@code POST} and {@code GET /users/{userId}/posts/{postId}/comments},
 * {@code DELETE /users/{userId}/posts/{postId}/comments/{commentId}}.
 */
record CommentRoutes(RouteContext context, PostStore posts, CommentStore comments) {
    static final int TEXT_MAX = 10_000;
    /** The fields of the body of {@code POST .../comments}. */
    private static final Set<String> CREATE = Set.of("authorId", "text");

    void register(Router router) {
        router.add("POST", "/users/{userId}/posts/{postId}/comments", Access.owner("userId"), this::create)
                    .summary("Comment on a post that is not deleted").body(CREATE).returns(201, Comment.class)
                .add("GET", "/users/{userId}/posts/{postId}/comments", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A post's comments, oldest first").page(Comment.class)
                .add("DELETE", "/users/{userId}/posts/{postId}/comments/{commentId}", Access.owner("userId"),
                        this::delete)
                    .summary("Delete a comment").returns(200, Comment.class);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        Body body = Body.parse(request.body(), CREATE);
        String authorId = body.requiredId("authorId");
        String text = body.requiredMultiline("text", 1, TEXT_MAX);
        PostRef ref = posts.locate(userId, postId);
        Comment comment = new Comment(context.ids().next(), postId, ref.userId(), ref.createdAt(), authorId, text,
                context.now());
        comments.create(comment);
        return ApiResponse.created(comment,
                "/users/" + userId + "/posts/" + postId + "/comments/" + comment.commentId());
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        return context.page(request, "comments:" + postId, CommentRequests.LIST_KEY,
                (limit, start) -> comments.list(posts.locate(userId, postId), limit, start), Comment::fromItem);
    }

    ApiResponse delete(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        String commentId = request.id("commentId");
        PostRef ref = posts.locate(userId, postId);
        return ApiResponse.ok(comments.delete(ref, commentId));
    }
}
