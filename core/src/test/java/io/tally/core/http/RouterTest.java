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
    void aLiteralSegment_winsOverAParameter_whateverTheOrderTheRoutesWereAddedIn() {
        Router.Handler byId = request -> null;
        Router.Handler search = request -> null;
        Router.Handler nested = request -> null;
        Router.Handler remove = request -> null;
        Router later = new Router();
        later.add("GET", "/users/{userId}/favourites/{favouriteId}", Access.SIGNED_IN, byId)
                .add("DELETE", "/users/{userId}/favourites/{favouriteId}", Access.SIGNED_IN, remove)
                .add("GET", "/users/{userId}/favourites/search", Access.SIGNED_IN, search)
                .add("GET", "/users/me/favourites/{favouriteId}", Access.SIGNED_IN, nested);
        assertThat(later.match("GET", "/users/u1/favourites/search").handler()).isSameAs(search);
        assertThat(later.match("GET", "/users/u1/favourites/f1").handler()).isSameAs(byId);
        // The first segment that differs decides: /users/me/... is closer than /users/{userId}/.../search.
        assertThat(later.match("GET", "/users/me/favourites/search").handler()).isSameAs(nested);
        assertThat(later.match("GET", "/users/me/favourites/search").pathParameters())
                .containsExactly(java.util.Map.entry("favouriteId", "search"));
        // A literal route of another method does not hide the parameter's route of this one.
        assertThat(later.match("DELETE", "/users/u1/favourites/search").handler()).isSameAs(remove);
        assertThat(later.allowedMethods("/users/u1/favourites/search")).containsExactly("DELETE", "GET");
        assertThatThrownBy(() -> later.match("PUT", "/users/u1/favourites/search"))
                .isInstanceOfSatisfying(ApiException.class, e -> assertThat(e.code())
                        .isEqualTo(ErrorCode.METHOD_NOT_ALLOWED));
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

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {
            "/users/%zz/posts/p1", "/users/%/posts/p1", "/users/u1/posts/%2",
            // not UTF-8 once decoded: a lone continuation byte, an overlong '.', an encoded surrogate, a truncation
            "/users/%FF/posts/p1", "/users/%C0%AE/posts/p1", "/users/%ED%A0%80/posts/p1", "/users/%E2%82/posts/p1",
            // control characters, encoded or not, and the replacement character
            "/users/%00/posts/p1", "/users/a%0Ab/posts/p1", "/users/a\0b/posts/p1", "/users/%7F/posts/p1",
            "/users/%C2%85/posts/p1", "/users/%EF%BF%BD/posts/p1",
            // a lone surrogate in the path as delivered (a hand-made event)
            "/users/\uD800/posts/p1",
            // on a path no route has, too: the path is refused before routing
            "/nowhere/%FF", "/%00"})
    void pathThatDoesNotDecodeStrictly_isInvalidRequest_beforeRouting(String path) {
        assertThatThrownBy(() -> router.match("GET", path)).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.code()).isEqualTo(ErrorCode.INVALID_REQUEST);
            // The message quotes the path printable: no control character, no lone surrogate.
            assertThat(e.getMessage()).startsWith("the path ").matches("[\\x20-\\x7E]*");
        });
    }

    @Test
    void pathOfValidUtf8_decodesAndMatches() {
        Router.Match match = router.match("GET", "/users/caf%C3%A9%20%F0%9F%98%80/posts/%E2%82%AC");
        assertThat(match.pathParameters()).containsEntry("userId", "caf\u00e9 \uD83D\uDE00")
                .containsEntry("postId", "\u20ac");
    }

    @Test
    void parametersAndShape_ofATemplate_asTheRouterReadsIt() {
        assertThat(Router.parameters("/users/{userId}/reviews/{itemId}")).containsExactly("userId", "itemId");
        assertThat(Router.parameters("/stats/global")).isEmpty();
        assertThat(Router.shape("GET", "/users/{userId}/reviews/{itemId}")).isEqualTo("GET /users/{}/reviews/{}");
        assertThat(Router.shape("GET", "/users/{id}/reviews/{other}/"))
                .isEqualTo(Router.shape("GET", "users/{userId}/reviews/{itemId}"));
        assertThat(Router.shape("GET", "/")).isEqualTo("GET /");
    }
}
