package io.tally.core.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class RouterTest {
    private final Router.Handler users = r -> ApiResponse.ok(Json.object().put("h", "users"));
    private final Router.Handler post = r -> ApiResponse.ok(Json.object().put("h", "post"));
    private final Router router = new Router();

    {
        router.add("POST", "/users", Access.SIGNED_IN, users)
                .add("GET", "/users/{userId}/posts/{postId}", Access.SIGNED_IN, post)
                .add("DELETE", "/users/{userId}/posts/{postId}", Access.SIGNED_IN, post);
    }

    @Test
    void match_bindsDecodedPathParameters() {
        Router.Match match = router.match("GET", "/users/u%2D1/posts/p+1");
        assertThat(match.handler()).isSameAs(post);
        assertThat(match.pathParameters()).containsEntry("userId", "u-1").containsEntry("postId", "p+1");
    }

    @Test
    void match_namesTheRouteTemplate_notThePath() {
        assertThat(router.match("DELETE", "/users/a/posts/b").template()).isEqualTo("/users/{userId}/posts/{postId}");
        assertThat(router.match("POST", "//users/").template()).isEqualTo("/users");
    }

    @Test
    void trailingSlash_matchesToo() {
        assertThat(router.match("POST", "/users/").handler()).isSameAs(users);
    }

    @Test
    void unknownPath_isNotFound() {
        assertThatThrownBy(() -> router.match("GET", "/nope")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
        assertThatThrownBy(() -> router.match("GET", "/users/u1/posts")).isInstanceOf(ApiException.class);
    }

    @Test
    void knownPathOtherMethod_isMethodNotAllowedWithAllowedMethods() {
        assertThatThrownBy(() -> router.match("PUT", "/users/u1/posts/p1")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.METHOD_NOT_ALLOWED));
        assertThat(router.allowedMethods("/users/u1/posts/p1")).containsExactly("DELETE", "GET");
    }

    @Test
    void malformedPercentEncoding_doesNotMatch() {
        assertThatThrownBy(() -> router.match("GET", "/users/%zz/posts/p1")).isInstanceOfSatisfying(ApiException.class,
                e -> assertThat(e.code()).isEqualTo(ErrorCode.NOT_FOUND));
    }
}
