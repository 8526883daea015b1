package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.testkit.UnreachableDynamoDb;
import io.tally.core.http.Access;
import io.tally.core.http.Authorization;
import io.tally.core.http.Router;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every route of the writer declares who may call it: the route list the dashboard reads ({@link Router#describe()})
 * is walked route by route, and a route without a rule, or with one this table does not expect, fails here. The
 * table is the access-control design in one place (docs/api.md, "Access control").
 */
class RouteAccessTest {
    /** Every route with its rule, as docs/api.md documents them. */
    static final Map<String, String> EXPECTED = expected();

    private static Map<String, String> expected() {
        Map<String, String> rules = new LinkedHashMap<>();
        // Blog: a user's own data; the status index and post stats are the aggregate read side.
        rules.put("POST /users", "new-user(userId)");
        rules.put("GET /users/{userId}", "owner-or-admin(userId)");
        rules.put("PATCH /users/{userId}", "owner(userId)");
        rules.put("POST /users/{userId}/posts", "owner(userId)");
        rules.put("GET /users/{userId}/posts", "owner-or-admin(userId)");
        rules.put("GET /users/{userId}/posts/{postId}", "owner-or-admin(userId)");
        rules.put("PATCH /users/{userId}/posts/{postId}", "owner(userId)");
        rules.put("DELETE /users/{userId}/posts/{postId}", "owner(userId)");
        // Comments: any signed-in user on anyone's post, as itself; deleted by its author, the post's owner or an admin.
        rules.put("POST /users/{userId}/posts/{postId}/comments", "author(authorId)");
        rules.put("GET /users/{userId}/posts/{postId}/comments", "owner-or-admin(userId)");
        rules.put("DELETE /users/{userId}/posts/{postId}/comments/{commentId}", "author-owner-or-admin(userId)");
        rules.put("GET /stats/posts/{postId}", "read-side");
        rules.put("GET /posts", "read-side");
        // Catalogue: admins write items; any signed-in user reads one; a user's own list; selectors are read side.
        rules.put("PUT /items/{itemId}", "admin");
        rules.put("GET /items/{itemId}", "signed-in");
        rules.put("DELETE /items/{itemId}", "admin");
        rules.put("PUT /users/{userId}/items/{itemId}", "owner(userId)");
        rules.put("GET /users/{userId}/items", "owner-or-admin(userId)");
        rules.put("GET /selectors/{selector}", "read-side");
        // Organisations: admins only (employees carry e-mail addresses); head counts are read side.
        rules.put("POST /orgs", "admin");
        rules.put("GET /orgs/{orgId}", "admin");
        rules.put("PATCH /orgs/{orgId}", "admin");
        rules.put("GET /stats/orgs/{orgId}", "read-side");
        rules.put("GET /stats/teams/{teamId}", "read-side");
        rules.put("POST /orgs/{orgId}/teams", "admin");
        rules.put("GET /orgs/{orgId}/teams", "admin");
        rules.put("DELETE /orgs/{orgId}/teams/{teamId}", "admin");
        rules.put("GET /teams/{teamId}", "admin");
        rules.put("POST /orgs/{orgId}/employees", "admin");
        rules.put("GET /orgs/{orgId}/employees", "admin");
        rules.put("DELETE /orgs/{orgId}/employees/{employeeId}", "admin");
        rules.put("GET /employees/{employeeId}", "admin");
        rules.put("PUT /orgs/{orgId}/teams/{teamId}/members/{employeeId}", "admin");
        rules.put("DELETE /orgs/{orgId}/teams/{teamId}/members/{employeeId}", "admin");
        rules.put("GET /orgs/{orgId}/teams/{teamId}/members", "admin");
        rules.put("GET /employees/{employeeId}/teams", "admin");
        // Songs: admins write songs and downloads; any signed-in user reads a song; stats and charts are read side.
        rules.put("PUT /songs/{songId}", "admin");
        rules.put("GET /songs/{songId}", "signed-in");
        rules.put("POST /songs/{songId}/downloads", "admin");
        rules.put("DELETE /songs/{songId}/downloads/{downloadId}", "admin");
        rules.put("GET /stats/songs/{songId}", "read-side");
        rules.put("GET /stats/songs/{songId}/days", "read-side");
        rules.put("GET /stats/downloads/days", "read-side");
        rules.put("GET /charts/downloads/{month}", "read-side");
        // Favourites: a user's own data.
        rules.put("POST /users/{userId}/tags", "owner(userId)");
        rules.put("GET /users/{userId}/tags", "owner-or-admin(userId)");
        rules.put("PATCH /users/{userId}/tags/{tagId}", "owner(userId)");
        rules.put("DELETE /users/{userId}/tags/{tagId}", "owner(userId)");
        rules.put("GET /users/{userId}/favourites/search", "owner-or-admin(userId)");
        rules.put("POST /users/{userId}/favourites", "owner(userId)");
        rules.put("GET /users/{userId}/favourites", "owner-or-admin(userId)");
        rules.put("GET /users/{userId}/favourites/{favouriteId}", "owner-or-admin(userId)");
        rules.put("DELETE /users/{userId}/favourites/{favouriteId}", "owner(userId)");
        rules.put("GET /stats/users/{userId}/favourites", "owner-or-admin(userId)");
        rules.put("PUT /users/{userId}/favourites/{favouriteId}/tags/{tagId}", "owner(userId)");
        rules.put("DELETE /users/{userId}/favourites/{favouriteId}/tags/{tagId}", "owner(userId)");
        rules.put("GET /users/{userId}/favourites/{favouriteId}/tags", "owner-or-admin(userId)");
        // Shared stats: a user's own stats; the global totals are read side.
        rules.put("GET /stats/users/{userId}", "owner-or-admin(userId)");
        rules.put("GET /stats/global", "read-side");
        // The activity feed and the dashboard: read side.
        rules.put("GET /activity", "read-side");
        rules.put("GET /openapi.json", "read-side");
        rules.put("GET /dashboard", "read-side");
        rules.put("GET /dashboard/routes.json", "read-side");
        rules.put("GET /dashboard/sections.json", "read-side");
        rules.put("GET /dashboard/{file}", "read-side");
        return rules;
    }

    private final WriterApi api = new WriterApi(UnreachableDynamoDb.client(request -> {
        throw new IllegalStateException("listing the routes must not touch the table");
    }), "tally", Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET, ShardSettings.DEFAULTS, "tally-activity",
            Authorization.required(true));

    @Test
    void everyRoute_declaresTheExpectedRule() {
        Map<String, Access> declared = new LinkedHashMap<>();
        api.routeRules().forEach(rule -> declared.put(rule.method() + " " + rule.template(), rule.access()));
        List<String> described = describedRoutes();
        assertThat(described).as("the route list and the rule list name the same routes")
                .containsExactlyElementsOf(declared.keySet());
        for (String route : described) {
            Access access = declared.get(route);
            assertThat(access.kind()).as("%s declares an access rule", route).isNotEqualTo(Access.Kind.UNDECLARED);
            assertThat(access.toString()).as("the rule of %s", route).isEqualTo(EXPECTED.get(route));
        }
        assertThat(EXPECTED.keySet()).as("routes this table expects that the writer no longer has")
                .containsExactlyInAnyOrderElementsOf(described);
    }

    @Test
    void aUsersRoutes_areOnlyThatUsersOrAnAdmins_andNoWriteIsPublic() {
        for (Router.Rule rule : api.routeRules()) {
            boolean usersData = rule.template().startsWith("/users/{userId}")
                    || rule.template().startsWith("/stats/users/{userId}");
            boolean comments = rule.template().startsWith("/users/{userId}/posts/{postId}/comments")
                    && !rule.method().equals("GET");
            if (comments) {
                // The one exception, by DOMAIN.md: others write comments on a user's post, as themselves.
                assertThat(rule.access().kind()).as(rule.toString())
                        .isIn(Access.Kind.AUTHOR, Access.Kind.AUTHOR_OWNER_OR_ADMIN);
            } else if (usersData) {
                assertThat(rule.access().kind()).as(rule.toString())
                        .isIn(Access.Kind.OWNER, Access.Kind.OWNER_OR_ADMIN);
                assertThat(rule.access().parameter()).as(rule.toString()).isEqualTo("userId");
            }
            if (!rule.method().equals("GET")) {
                assertThat(rule.access().kind()).as("%s changes data", rule)
                        .isIn(Access.Kind.OWNER, Access.Kind.ADMIN, Access.Kind.NEW_USER, Access.Kind.AUTHOR,
                                Access.Kind.AUTHOR_OWNER_OR_ADMIN);
            } else {
                assertThat(rule.access().kind()).as("%s only reads", rule).isNotEqualTo(Access.Kind.OWNER);
            }
        }
    }

    @Test
    void aRouteAddedWithoutARule_isUndeclared_andRefusedWhenAuthorizationIsOn() {
        Router router = new Router(Authorization.required(true));
        @SuppressWarnings("deprecation")
        Router.Route forgotten = router.add("GET", "/forgotten", request -> io.tally.core.http.ApiResponse.ok(
                io.tally.core.http.Json.object()));
        assertThat(forgotten.describe().access()).isEqualTo(Access.UNDECLARED);
        assertThat(router.rules()).singleElement().satisfies(rule ->
                assertThat(rule.access()).isEqualTo(Access.UNDECLARED));
        io.tally.core.http.ApiRequest request = new io.tally.core.http.ApiRequest("GET", "/forgotten", Map.of(),
                Map.of(), Map.of(), null, new io.tally.core.http.Caller("u1", java.util.Set.of("admin"),
                        java.util.Set.of()));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> router.match("GET", "/forgotten").handler()
                .handle(request)).isInstanceOfSatisfying(io.tally.core.http.ApiException.class,
                        e -> assertThat(e.code()).isEqualTo(io.tally.core.http.ErrorCode.FORBIDDEN));
    }

    /** The routes as {@code GET /dashboard/routes.json} lists them ({@link Router#describe()}). */
    private List<String> describedRoutes() {
        io.tally.core.http.ApiResponse response = api.handle(new io.tally.core.http.ApiRequest("GET",
                "/dashboard/routes.json", Map.of(), Map.of(), Map.of(), null));
        assertThat(response.status()).isEqualTo(200);
        List<String> routes = new java.util.ArrayList<>();
        response.body().path("routes").forEach(route -> routes.add(route.asText()));
        return routes;
    }
}
