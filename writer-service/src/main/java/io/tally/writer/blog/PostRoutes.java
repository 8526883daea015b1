package io.tally.writer.blog;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.blog.Post;
import io.tally.core.blog.PostRef;
import io.tally.core.blog.PostStatus;
import io.tally.writer.RouteContext;
import io.tally.writer.http.ApiException;
import io.tally.writer.http.ApiRequest;
import io.tally.writer.http.ApiResponse;
import io.tally.writer.http.Body;
import io.tally.writer.http.IfMatch;
import io.tally.writer.http.Page;
import io.tally.writer.http.Router;
import io.tally.writer.store.QueryPage;
import io.tally.writer.store.Transactions;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * {@code POST /users/{userId}/posts}, {@code GET /users/{userId}/posts}, and {@code GET}, {@code PATCH},
 * {@code DELETE /users/{userId}/posts/{postId}}.
 */
public final class PostRoutes {
    static final int TITLE_MAX = 200;
    static final int BODY_MAX = 10_000;

    private final RouteContext context;

    public PostRoutes(RouteContext context) {
        this.context = context;
    }

    public void register(Router router) {
        router.add("POST", "/users/{userId}/posts", this::create)
                .add("GET", "/users/{userId}/posts", this::list)
                .add("GET", "/users/{userId}/posts/{postId}", this::get)
                .add("PATCH", "/users/{userId}/posts/{postId}", this::update)
                .add("DELETE", "/users/{userId}/posts/{postId}", this::delete);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        Body body = Body.parse(request.body(), Set.of("postId", "title", "body"));
        String postId = body.optionalId("postId");
        String title = body.requiredString("title", 1, TITLE_MAX);
        String text = body.requiredString("body", 1, BODY_MAX);
        Instant now = context.now();
        Post post = new Post(postId == null ? context.ids().next() : postId, userId, title, text,
                PostStatus.CREATED, now, now, 1);
        try {
            Transactions.write(context.dynamo(), PostRequests.create(context.table(), post));
        } catch (TransactionCanceledException e) {
            if (Transactions.conditionFailed(e, PostRequests.CREATE_USER)) {
                throw ApiException.notFound("user '" + userId + "' does not exist");
            }
            if (Transactions.conditionFailed(e, PostRequests.CREATE_REF)
                    || Transactions.conditionFailed(e, PostRequests.CREATE_POST)) {
                throw ApiException.conflict("post '" + post.postId() + "' already exists");
            }
            throw e;
        }
        return ApiResponse.created(BlogJson.post(post), location(post)).withETag(post.version());
    }

    ApiResponse get(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        PostRef ref = locate(context, userId, postId);
        Map<String, AttributeValue> item = context.dynamo().getItem(PostRequests.get(context.table(), ref.postKey())).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId, postId);
        }
        Post post = Post.fromItem(item);
        return ApiResponse.ok(BlogJson.post(post)).withETag(post.version());
    }

    ApiResponse update(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        IfMatch ifMatch = request.ifMatch();
        Body body = Body.parse(request.body(), Set.of("title", "body"));
        String title = body.optionalString("title", 1, TITLE_MAX);
        String text = body.optionalString("body", 1, BODY_MAX);
        if (title == null && text == null) {
            throw ApiException.validation(null, "nothing to change: give title or body");
        }
        PostRef ref = locate(context, userId, postId);
        Map<String, AttributeValue> item;
        try {
            item = context.dynamo()
                    .updateItem(PostRequests.update(context.table(), ref.postKey(), title, text, context.now(), ifMatch))
                    .attributes();
        } catch (ConditionalCheckFailedException e) {
            Post current = current(e, userId, postId);
            // Deleted first: a deleted post cannot change at any version, so If-Match is beside the point.
            if (current.status() == PostStatus.DELETED) {
                throw ApiException.conflict("post '" + postId + "' is deleted");
            }
            throw stale(current, ifMatch);
        }
        Post post = Post.fromItem(item);
        return ApiResponse.ok(BlogJson.post(post)).withETag(post.version());
    }

    ApiResponse delete(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        IfMatch ifMatch = request.ifMatch();
        PostRef ref = locate(context, userId, postId);
        Map<String, AttributeValue> item;
        try {
            item = context.dynamo()
                    .updateItem(PostRequests.delete(context.table(), ref.postKey(), context.now(), ifMatch))
                    .attributes();
        } catch (ConditionalCheckFailedException e) {
            Post current = current(e, userId, postId);
            // A repeated delete (say, a retry whose response was lost) finds the change already made: RFC 9110
            // section 13.1.1 lets it succeed even when its If-Match names the version before that delete.
            if (current.status() == PostStatus.DELETED) {
                return ApiResponse.ok(BlogJson.post(current)).withETag(current.version());
            }
            throw stale(current, ifMatch);
        }
        Post post = Post.fromItem(item);
        return ApiResponse.ok(BlogJson.post(post)).withETag(post.version());
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        int limit = Page.limit(request);
        String scope = "posts:" + userId;
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), PostRequests.LIST_KEY);
        Map<String, AttributeValue> user = context.dynamo().getItem(UserRequests.get(context.table(), userId)).item();
        if (user == null || user.isEmpty()) {
            throw ApiException.notFound("user '" + userId + "' does not exist");
        }
        QueryPage page = QueryPage.of(
                context.dynamo().query(PostRequests.list(context.table(), userId, limit, start)),
                limit, PostRequests.LIST_KEY);
        List<ObjectNode> posts = page.items().stream().map(item -> BlogJson.post(Post.fromItem(item))).toList();
        return ApiResponse.ok(Page.body(posts, context.cursors().encode(scope, page.nextKey())));
    }

    /**
     * Finds where a post is stored: its key holds its creation time, which only the {@link PostRef} knows. A
     * post under another user is not found, so that a path never reaches a post through the wrong user.
     */
    static PostRef locate(RouteContext context, String userId, String postId) {
        Map<String, AttributeValue> item = context.dynamo().getItem(PostRequests.getRef(context.table(), postId)).item();
        if (item == null || item.isEmpty()) {
            throw notFound(userId, postId);
        }
        PostRef ref = PostRef.fromItem(item);
        if (!ref.userId().equals(userId)) {
            throw notFound(userId, postId);
        }
        return ref;
    }

    static ApiException notFound(String userId, String postId) {
        return ApiException.notFound("user '" + userId + "' has no post '" + postId + "'");
    }

    private static Post current(ConditionalCheckFailedException e, String userId, String postId) {
        if (!e.hasItem() || e.item().isEmpty()) {
            throw notFound(userId, postId);
        }
        return Post.fromItem(e.item());
    }

    private static ApiException stale(Post current, IfMatch ifMatch) {
        return ApiException.preconditionFailed("post '" + current.postId() + "' is at version "
                + current.version() + ", not " + ifMatch.version());
    }

    private static String location(Post post) {
        return "/users/" + post.userId() + "/posts/" + post.postId();
    }
}
