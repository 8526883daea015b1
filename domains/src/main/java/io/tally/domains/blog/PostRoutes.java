package io.tally.domains.blog;

import io.tally.core.users.UserStore;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.IfMatch;
import io.tally.core.http.Page;
import io.tally.core.domain.RouteContext;
import io.tally.core.http.Router;
import io.tally.core.store.QueryPage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code POST /users/{userId}/posts}, {@code GET /users/{userId}/posts}, and {@code GET}, {@code PATCH},
 * {@code DELETE /users/{userId}/posts/{postId}}.
 */
final class PostRoutes {
    static final int TITLE_MAX = 200;
    static final int BODY_MAX = 10_000;

    private final RouteContext context;
    private final UserStore users;
    private final PostStore posts;

    PostRoutes(RouteContext context, UserStore users, PostStore posts) {
        this.context = context;
        this.users = users;
        this.posts = posts;
    }

    void register(Router router) {
        router.add("POST", "/users/{userId}/posts", Access.owner("userId"), this::create)
                .add("GET", "/users/{userId}/posts", Access.ownerOrAdmin("userId"), this::list)
                .add("GET", "/users/{userId}/posts/{postId}", Access.ownerOrAdmin("userId"), this::get)
                .add("PATCH", "/users/{userId}/posts/{postId}", Access.owner("userId"), this::update)
                .add("DELETE", "/users/{userId}/posts/{postId}", Access.owner("userId"), this::delete);
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
        posts.create(post);
        return ApiResponse.created(BlogJson.post(post), location(post)).withETag(post.version());
    }

    ApiResponse get(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        return render(posts.get(posts.locate(userId, postId)));
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
        PostRef ref = posts.locate(userId, postId);
        return render(posts.update(ref, title, text, context.now(), ifMatch));
    }

    ApiResponse delete(ApiRequest request) {
        String userId = request.id("userId");
        String postId = request.id("postId");
        IfMatch ifMatch = request.ifMatch();
        PostRef ref = posts.locate(userId, postId);
        return render(posts.delete(ref, context.now(), ifMatch));
    }

    ApiResponse list(ApiRequest request) {
        String userId = request.id("userId");
        int limit = Page.limit(request);
        String scope = "posts:" + userId;
        Map<String, AttributeValue> start =
                context.cursors().decode(scope, request.queryParameter("cursor"), PostRequests.LIST_KEY);
        users.requireExists(userId);
        QueryPage page = posts.list(userId, limit, start);
        List<ObjectNode> items = page.items().stream().map(item -> BlogJson.post(Post.fromItem(item))).toList();
        return ApiResponse.ok(Page.body(items, context.cursors().encode(scope, page.nextKey())));
    }

    private static ApiResponse render(Post post) {
        return ApiResponse.ok(BlogJson.post(post)).withETag(post.version());
    }

    private static String location(Post post) {
        return "/users/" + post.userId() + "/posts/" + post.postId();
    }
}
