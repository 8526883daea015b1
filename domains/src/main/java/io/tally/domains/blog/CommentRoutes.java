package io.tally.domains.blog;

import io.tally.core.Ids;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Authorization;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.Router;

/**
 * {@code POST} and {@code GET /users/{userId}/posts/{postId}/comments},
 * {@code DELETE /users/{userId}/posts/{postId}/comments/{commentId}}.
 */
record CommentRoutes(RouteContext context, PostStore posts, CommentStore comments) {
    static final int TEXT_MAX = 10_000;
    /** Required without access control, else the token's subject when left out ({@link #author}). */
    private static final Field<String> AUTHOR_ID = Field.id("authorId");
    private static final Field<String> TEXT = Field.multiline("text", 1, TEXT_MAX).required();
    /** The body of {@code POST .../comments}. */
    private static final Fields CREATE = Fields.of(AUTHOR_ID, TEXT);
    /** Any signed-in user comments on any post, as itself (DOMAIN.md, access control, comments). */
    static final Access WRITE = Access.author("authorId");
    /** A comment goes by its author's, the post owner's or an admin's hand. */
    static final Access DELETE = Access.authorOwnerOrAdmin("userId");

    void register(Router router) {
        router.add("POST", "/users/{userId}/posts/{postId}/comments", WRITE, this::create)
                    .summary("Comment on a post that is not deleted, as the caller").body(CREATE)
                    .returns(201, Comment.class)
                .add("GET", "/users/{userId}/posts/{postId}/comments", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A post's comments, oldest first").page(Comment.class)
                .add("DELETE", "/users/{userId}/posts/{postId}/comments/{commentId}", DELETE, this::delete)
                    .summary("Delete a comment (its author, the post's owner or an admin)")
                    .returns(200, Comment.class);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        Body body = Body.parse(request.body(), CREATE);
        String authorId = author(request, body);
        String text = body.get(TEXT);
        PostRef ref = posts.locate(userId, postId);
        Comment comment = new Comment(context.ids().next(), postId, ref.userId(), ref.createdAt(), authorId, text,
                context.now());
        comments.create(comment);
        return ApiResponse.created(comment,
                "/users/" + userId + "/posts/" + postId + "/comments/" + comment.commentId());
    }

    /**
     * The comment's author: the caller. {@link #WRITE} refused an {@code authorId} that is not the caller's subject;
     * left out, it is the subject. Without access control (every caller anonymous) the body names it, as the
     * contract's table says.
     */
    private static String author(ApiRequest request, Body body) {
        String subject = request.caller().subject();
        String given = body.get(AUTHOR_ID);
        if (subject == null) {
            if (given == null) {
                throw ApiException.validation(AUTHOR_ID.name(), "'authorId' is required");
            }
            return given;
        }
        if (given != null && !given.equals(subject)) {
            throw ApiException.forbidden("'authorId' must be the token's subject");
        }
        if (!Ids.isValid(subject)) {
            throw ApiException.validation("authorId", "the token's subject cannot be a user id (it must match "
                    + Ids.PATTERN.pattern() + ")");
        }
        return subject;
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        return context.page(request, "comments:" + postId, CommentStore.LIST_KEY,
                (limit, start) -> comments.list(posts.locate(userId, postId), limit, start), Comment::fromItem);
    }

    ApiResponse delete(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        String commentId = request.id("commentId");
        PostRef ref = posts.locate(userId, postId);
        return ApiResponse.ok(comments.delete(ref, commentId,
                comment -> Authorization.checkAuthor(DELETE, request, comment.authorId())));
    }
}
