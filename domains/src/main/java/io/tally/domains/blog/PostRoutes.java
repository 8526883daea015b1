package io.tally.domains.blog;

import io.tally.core.domain.RouteContext;
import io.tally.core.http.Access;
import io.tally.core.http.ApiException;
import io.tally.core.http.ApiRequest;
import io.tally.core.http.ApiResponse;
import io.tally.core.http.Body;
import io.tally.core.http.Field;
import io.tally.core.http.Fields;
import io.tally.core.http.IfMatch;
import io.tally.core.http.Router;
import io.tally.core.users.UserStore;
import java.time.Instant;

/**
 * {@code POST /users/{userId}/posts}, {@code GET /users/{userId}/posts}, and {@code GET}, {@code PATCH},
 * {@code DELETE /users/{userId}/posts/{postId}}.
 */
record PostRoutes(RouteContext context, UserStore users, PostStore posts) {
    static final int TITLE_MAX = 200;
    static final int BODY_MAX = 10_000;
    private static final Field<String> POST_ID = Field.id("postId");
    private static final Field<String> TITLE = Field.string("title", 1, TITLE_MAX);
    private static final Field<String> TEXT = Field.multiline("body", 1, BODY_MAX);
    /** The bodies of {@code POST /users/{userId}/posts} and {@code PATCH .../posts/{postId}}. */
    private static final Fields CREATE = Fields.of(POST_ID, TITLE.required(), TEXT.required());
    private static final Fields UPDATE = Fields.of(TITLE, TEXT);

    void register(Router router) {
        router.add("POST", "/users/{userId}/posts", Access.owner("userId"), this::create)
                    .summary("Write a post (status created)").body(CREATE).returns(201, Post.class)
                .add("GET", "/users/{userId}/posts", Access.ownerOrAdmin("userId"), this::list)
                    .summary("A user's posts, newest first, all statuses").page(Post.class)
                .add("GET", "/users/{userId}/posts/{postId}", Access.ownerOrAdmin("userId"), this::get)
                    .summary("A post").returns(200, Post.class)
                .add("PATCH", "/users/{userId}/posts/{postId}", Access.owner("userId"), this::update)
                    .summary("Change a post's title or body (If-Match: its version)").body(UPDATE)
                    .returns(200, Post.class)
                .add("DELETE", "/users/{userId}/posts/{postId}", Access.owner("userId"), this::delete)
                    .summary("Soft-delete a post: it stays readable, with status deleted").returns(200, Post.class);
    }

    ApiResponse create(ApiRequest request) {
        String userId = request.id("userId");
        Body body = Body.parse(request.body(), CREATE);
        String postId = body.get(POST_ID);
        String title = body.get(TITLE);
        String text = body.get(TEXT);
        Instant now = context.now();
        Post post = new Post(context.idOrNew(postId), userId, title, text, PostStatus.CREATED, now, now, 1);
        posts.create(post);
        return ApiResponse.created(post, "/users/" + post.userId() + "/posts/" + post.postId())
                .withETag(post.version());
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
        Body body = Body.parse(request.body(), UPDATE);
        String title = body.get(TITLE);
        String text = body.get(TEXT);
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
        return context.page(request, "posts:" + userId, PostStore.LIST_KEY, (limit, start) -> {
            users.requireExists(userId);
            return posts.list(userId, limit, start);
        }, Post::fromItem);
    }

    private static ApiResponse render(Post post) {
        return ApiResponse.ok(post).withETag(post.version());
    }
}
