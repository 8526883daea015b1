package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.tally.local.auth.LocalAuth;
import io.tally.testkit.ApiCalls;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The access-control property, exhaustively, over real HTTP against {@code tally-local --auth} (the front verifies the
 * token as API Gateway's JWT authorizer does and hands the writer the claims): for every route of the route table and
 * every kind of caller (none, the owner, another user, an admin, a token with a forged signature, an expired token),
 * the status is exactly the one the route's rule gives that caller; and no public answer, whoever asks, holds a value
 * that only a protected route would show.
 *
 * <p>The rules are written here as docs/api.md ("Access control") states them, not read from the code, and every route
 * the writer serves must have a case. Each case that writes runs, for every caller its rule admits, on data of its own
 * (a namespace of users, posts, organisations, ... created for it), so that what one admitted call changed never
 * decides another's status; refusals change nothing, and the reads share one namespace.
 */
class AccessControlPropertyIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MONTH = LocalDate.now(ZoneOffset.UTC).toString().substring(0, 7);
    private static final String TODAY = LocalDate.now(ZoneOffset.UTC).toString();
    /** Routes of the local front that are not the writer's (docs/api.md, "Local-only routes"). */
    private static final Set<String> LOCAL_ONLY = Set.of("GET /events", "GET /metrics");

    /** The rules of docs/api.md's table. */
    enum Rule { READ_SIDE, SIGNED_IN, OWNER, OWNER_OR_ADMIN, ADMIN, NEW_USER, AUTHOR, AUTHOR_OWNER_OR_ADMIN }

    /** The kinds of caller. */
    enum Who { ANONYMOUS, OWNER, OTHER_USER, ADMIN, FORGED, EXPIRED }

    /**
     * One route of the table: a concrete request on a namespace's data ({@code {o}}: its owner's id, {@code {ns}}: its
     * suffix, {@code {c}}: its comment by a third user), the rule, and the status of an admitted caller.
     */
    record Case(String route, String method, String path, String body, Rule rule, int status) {
        boolean writes() {
            return !method.equals("GET");
        }

        @Override
        public String toString() {
            return route + " (" + rule + ")";
        }
    }

    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        // Users
        cases.add(new Case("POST /users", "POST", "/users", "{\"name\":\"New\",\"email\":\"new@example.com\"}",
                Rule.NEW_USER, 201));
        cases.add(new Case("GET /users/{userId}", "GET", "/users/{o}", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("PATCH /users/{userId}", "PATCH", "/users/{o}", "{\"name\":\"One\"}", Rule.OWNER, 200));
        // Posts and comments
        cases.add(new Case("POST /users/{userId}/posts", "POST", "/users/{o}/posts", "{\"title\":\"T\",\"body\":\"B\"}",
                Rule.OWNER, 201));
        cases.add(new Case("GET /users/{userId}/posts", "GET", "/users/{o}/posts", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("GET /users/{userId}/posts/{postId}", "GET", "/users/{o}/posts/p{ns}", null,
                Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("PATCH /users/{userId}/posts/{postId}", "PATCH", "/users/{o}/posts/p{ns}",
                "{\"title\":\"T2\"}", Rule.OWNER, 200));
        cases.add(new Case("DELETE /users/{userId}/posts/{postId}", "DELETE", "/users/{o}/posts/p{ns}", null,
                Rule.OWNER, 200));
        cases.add(new Case("POST /users/{userId}/posts/{postId}/comments", "POST", "/users/{o}/posts/p{ns}/comments",
                "{\"text\":\"Hi\"}", Rule.AUTHOR, 201));
        cases.add(new Case("GET /users/{userId}/posts/{postId}/comments", "GET", "/users/{o}/posts/p{ns}/comments",
                null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("DELETE /users/{userId}/posts/{postId}/comments/{commentId}", "DELETE",
                "/users/{o}/posts/p{ns}/comments/{c}", null, Rule.AUTHOR_OWNER_OR_ADMIN, 200));
        cases.add(new Case("GET /stats/posts/{postId}", "GET", "/stats/posts/p{ns}", null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /posts", "GET", "/posts?status=created", null, Rule.READ_SIDE, 200));
        // Catalogue
        cases.add(new Case("PUT /items/{itemId}", "PUT", "/items/in{ns}",
                "{\"score\":8,\"selector\":\"back-catalogue\"}", Rule.ADMIN, 201));
        cases.add(new Case("GET /items/{itemId}", "GET", "/items/i{ns}", null, Rule.SIGNED_IN, 200));
        cases.add(new Case("DELETE /items/{itemId}", "DELETE", "/items/i{ns}", null, Rule.ADMIN, 200));
        cases.add(new Case("PUT /users/{userId}/items/{itemId}", "PUT", "/users/{o}/items/i{ns}",
                "{\"state\":\"in-progress\"}", Rule.OWNER, 200));
        cases.add(new Case("GET /users/{userId}/items", "GET", "/users/{o}/items?state=assigned", null,
                Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("GET /selectors/{selector}", "GET", "/selectors/back-catalogue", null, Rule.READ_SIDE, 200));
        // Organisations
        cases.add(new Case("POST /orgs", "POST", "/orgs", "{\"orgId\":\"gn{ns}\",\"name\":\"N\"}", Rule.ADMIN, 201));
        cases.add(new Case("GET /orgs/{orgId}", "GET", "/orgs/g{ns}", null, Rule.ADMIN, 200));
        cases.add(new Case("PATCH /orgs/{orgId}", "PATCH", "/orgs/g{ns}", "{\"name\":\"G2\"}", Rule.ADMIN, 200));
        cases.add(new Case("GET /stats/orgs/{orgId}", "GET", "/stats/orgs/g{ns}", null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /stats/teams/{teamId}", "GET", "/stats/teams/tm{ns}", null, Rule.READ_SIDE, 200));
        cases.add(new Case("POST /orgs/{orgId}/teams", "POST", "/orgs/g{ns}/teams",
                "{\"teamId\":\"tn{ns}\",\"name\":\"n\"}", Rule.ADMIN, 201));
        cases.add(new Case("GET /orgs/{orgId}/teams", "GET", "/orgs/g{ns}/teams", null, Rule.ADMIN, 200));
        cases.add(new Case("DELETE /orgs/{orgId}/teams/{teamId}", "DELETE", "/orgs/g{ns}/teams/tm{ns}", null,
                Rule.ADMIN, 200));
        cases.add(new Case("GET /teams/{teamId}", "GET", "/teams/tm{ns}", null, Rule.ADMIN, 200));
        cases.add(new Case("POST /orgs/{orgId}/employees", "POST", "/orgs/g{ns}/employees",
                "{\"employeeId\":\"en{ns}\",\"name\":\"N\",\"email\":\"n@example.com\"}", Rule.ADMIN, 201));
        cases.add(new Case("GET /orgs/{orgId}/employees", "GET", "/orgs/g{ns}/employees", null, Rule.ADMIN, 200));
        cases.add(new Case("DELETE /orgs/{orgId}/employees/{employeeId}", "DELETE", "/orgs/g{ns}/employees/e{ns}",
                null, Rule.ADMIN, 200));
        cases.add(new Case("GET /employees/{employeeId}", "GET", "/employees/e{ns}", null, Rule.ADMIN, 200));
        cases.add(new Case("PUT /orgs/{orgId}/teams/{teamId}/members/{employeeId}", "PUT",
                "/orgs/g{ns}/teams/tm{ns}/members/e{ns}", "{\"role\":\"lead\"}", Rule.ADMIN, 200));
        cases.add(new Case("DELETE /orgs/{orgId}/teams/{teamId}/members/{employeeId}", "DELETE",
                "/orgs/g{ns}/teams/tm{ns}/members/e{ns}", null, Rule.ADMIN, 200));
        cases.add(new Case("GET /orgs/{orgId}/teams/{teamId}/members", "GET", "/orgs/g{ns}/teams/tm{ns}/members", null,
                Rule.ADMIN, 200));
        cases.add(new Case("GET /employees/{employeeId}/teams", "GET", "/employees/e{ns}/teams", null, Rule.ADMIN,
                200));
        // Songs
        cases.add(new Case("PUT /songs/{songId}", "PUT", "/songs/sn{ns}", "{\"title\":\"New\"}", Rule.ADMIN, 201));
        cases.add(new Case("GET /songs/{songId}", "GET", "/songs/s{ns}", null, Rule.SIGNED_IN, 200));
        cases.add(new Case("POST /songs/{songId}/downloads", "POST", "/songs/s{ns}/downloads",
                "{\"downloadId\":\"dn{ns}\"}", Rule.ADMIN, 201));
        cases.add(new Case("DELETE /songs/{songId}/downloads/{downloadId}", "DELETE", "/songs/s{ns}/downloads/d{ns}",
                null, Rule.ADMIN, 200));
        cases.add(new Case("GET /stats/songs/{songId}", "GET", "/stats/songs/s{ns}", null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /stats/songs/{songId}/days", "GET",
                "/stats/songs/s{ns}/days?from=" + TODAY + "&to=" + TODAY, null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /stats/downloads/days", "GET", "/stats/downloads/days?from=" + TODAY + "&to=" + TODAY,
                null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /charts/downloads/{month}", "GET", "/charts/downloads/" + MONTH, null, Rule.READ_SIDE,
                200));
        // Favourites
        cases.add(new Case("POST /users/{userId}/tags", "POST", "/users/{o}/tags",
                "{\"tagId\":\"tn{ns}\",\"name\":\"Work\"}", Rule.OWNER, 201));
        cases.add(new Case("GET /users/{userId}/tags", "GET", "/users/{o}/tags", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("PATCH /users/{userId}/tags/{tagId}", "PATCH", "/users/{o}/tags/tg{ns}",
                "{\"name\":\"Trips\"}", Rule.OWNER, 200));
        cases.add(new Case("DELETE /users/{userId}/tags/{tagId}", "DELETE", "/users/{o}/tags/tg{ns}", null, Rule.OWNER,
                200));
        cases.add(new Case("GET /users/{userId}/favourites/search", "GET", "/users/{o}/favourites/search?q=trip", null,
                Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("POST /users/{userId}/favourites", "POST", "/users/{o}/favourites",
                "{\"favouriteId\":\"fn{ns}\",\"type\":\"note\",\"title\":\"Note\"}", Rule.OWNER, 201));
        cases.add(new Case("GET /users/{userId}/favourites", "GET", "/users/{o}/favourites", null, Rule.OWNER_OR_ADMIN,
                200));
        cases.add(new Case("GET /users/{userId}/favourites/{favouriteId}", "GET", "/users/{o}/favourites/f{ns}", null,
                Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("DELETE /users/{userId}/favourites/{favouriteId}", "DELETE", "/users/{o}/favourites/f{ns}",
                null, Rule.OWNER, 200));
        cases.add(new Case("GET /stats/users/{userId}/favourites", "GET", "/stats/users/{o}/favourites", null,
                Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("PUT /users/{userId}/favourites/{favouriteId}/tags/{tagId}", "PUT",
                "/users/{o}/favourites/f{ns}/tags/tg{ns}", null, Rule.OWNER, 200));
        cases.add(new Case("DELETE /users/{userId}/favourites/{favouriteId}/tags/{tagId}", "DELETE",
                "/users/{o}/favourites/f{ns}/tags/tg{ns}", null, Rule.OWNER, 200));
        cases.add(new Case("GET /users/{userId}/favourites/{favouriteId}/tags", "GET",
                "/users/{o}/favourites/f{ns}/tags", null, Rule.OWNER_OR_ADMIN, 200));
        // Shared stats
        cases.add(new Case("GET /stats/users/{userId}", "GET", "/stats/users/{o}", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("GET /stats/global", "GET", "/stats/global", null, Rule.READ_SIDE, 200));
        // The feed, the document, the dashboard
        cases.add(new Case("GET /activity", "GET", "/activity?limit=100", null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /openapi.json", "GET", "/openapi.json", null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /dashboard", "GET", "/dashboard", null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /dashboard/routes.json", "GET", "/dashboard/routes.json", null, Rule.READ_SIDE, 200));
        cases.add(new Case("GET /dashboard/sections.json", "GET", "/dashboard/sections.json", null, Rule.READ_SIDE,
                200));
        cases.add(new Case("GET /dashboard/{file}", "GET", "/dashboard/dashboard.js", null, Rule.READ_SIDE, 200));
        return cases;
    }

    /** The status the rule gives the caller: an admitted caller gets the route's own. */
    static int expected(Case route, Who who) {
        if (route.rule() == Rule.READ_SIDE) {
            return route.status();
        }
        if (who == Who.ANONYMOUS || who == Who.FORGED || who == Who.EXPIRED) {
            return 401;
        }
        return admits(route.rule(), who) ? route.status() : 403;
    }

    /** Whether a signed-in caller (owner, another user, admin) may call a route of the rule. */
    static boolean admits(Rule rule, Who who) {
        return switch (rule) {
            case READ_SIDE, SIGNED_IN, NEW_USER, AUTHOR -> true;
            case OWNER -> who == Who.OWNER;
            case OWNER_OR_ADMIN, AUTHOR_OWNER_OR_ADMIN -> who == Who.OWNER || who == Who.ADMIN;
            case ADMIN -> who == Who.ADMIN;
        };
    }

    private static LocalRunner runner;
    private static LocalAuth auth;
    /** Signs with another key under the runner's key id: a forged signature. */
    private static RSAKey forger;
    private static final AtomicInteger NAMESPACES = new AtomicInteger();
    /** The namespace the reads share, and the values only protected routes show of it. */
    private static Namespace shared;

    @BeforeAll
    static void start() throws Exception {
        // The write quota has tests of its own (FloodIT, WriteQuotaIT): here it must not decide a status.
        runner = LocalRunner.start(RunnerSettings.ephemeral().withAuth(true).withWriteQuota(
                new io.tally.core.http.WriteQuota.Rates(100_000, 1_000_000, 100_000, 1_000_000)));
        auth = runner.auth().orElseThrow();
        forger = new RSAKeyGenerator(2048).keyID(auth.keyId()).algorithm(JWSAlgorithm.RS256).generate();
        shared = Namespace.create(true);
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    /**
     * One set of data: its users (the owner, another user, an admin, a third user who comments), and, unless it is
     * bare (for {@code POST /users}, whose callers must not exist yet), the owner's post with the third user's
     * comment, a catalogue item the owner has assigned, a song with a download, an organisation with a team, an
     * employee and the membership, and the owner's tag, favourite and link. Private values carry the marker
     * {@code secret-<ns>}, which no public answer may hold.
     */
    record Namespace(String ns, Map<Who, String> tokens, String commentId) {
        String owner() {
            return "o" + ns;
        }

        String secret(String what) {
            return "secret" + ns + what;
        }

        static Namespace create(boolean withData) {
            // Distinctive, so that a search of an answer for one of its ids finds nothing by chance.
            String ns = "N" + NAMESPACES.incrementAndGet() + "q";
            Map<Who, String> tokens = new LinkedHashMap<>();
            Instant now = Instant.now();
            tokens.put(Who.OWNER, auth.mint("o" + ns, false, Duration.ofMinutes(30), now));
            tokens.put(Who.OTHER_USER, auth.mint("x" + ns, false, Duration.ofMinutes(30), now));
            tokens.put(Who.ADMIN, auth.mint("a" + ns, true, Duration.ofMinutes(30), now));
            Namespace bare = new Namespace(ns, tokens, null);
            if (!withData) {
                return bare;
            }
            String third = auth.mint("t" + ns, false, Duration.ofMinutes(30), now);
            String owner = tokens.get(Who.OWNER);
            String admin = tokens.get(Who.ADMIN);
            for (Map.Entry<String, String> user : Map.of("o", owner, "x", tokens.get(Who.OTHER_USER), "a", admin,
                    "t", third).entrySet()) {
                ok(call("POST", "/users", "{\"name\":\"" + bare.secret("name" + user.getKey()) + "\",\"email\":\""
                        + bare.secret("mail" + user.getKey()) + "@example.com\"}", user.getValue()), 201);
            }
            ok(call("POST", "/users/o" + ns + "/posts", "{\"postId\":\"p" + ns + "\",\"title\":\"Post " + ns
                    + "\",\"body\":\"" + bare.secret("body") + "\"}", owner), 201);
            Reply comment = call("POST", "/users/o" + ns + "/posts/p" + ns + "/comments", "{\"text\":\""
                    + bare.secret("comment") + "\"}", third);
            ok(comment, 201);
            ok(call("PUT", "/items/i" + ns, "{\"title\":\"Item " + ns + "\",\"score\":70,"
                    + "\"selector\":\"back-catalogue\"}", admin), 201);
            ok(call("PUT", "/users/o" + ns + "/items/i" + ns, "{\"state\":\"assigned\"}", owner), 201);
            ok(call("PUT", "/songs/s" + ns, "{\"title\":\"Song " + ns + "\"}", admin), 201);
            ok(call("POST", "/songs/s" + ns + "/downloads", "{\"downloadId\":\"d" + ns + "\",\"userId\":\""
                    + bare.secret("downloader") + "\"}", admin), 201);
            ok(call("POST", "/orgs", "{\"orgId\":\"g" + ns + "\",\"name\":\"" + bare.secret("org") + "\"}", admin),
                    201);
            ok(call("POST", "/orgs/g" + ns + "/teams", "{\"teamId\":\"tm" + ns + "\",\"name\":\"" + bare.secret("team")
                    + "\"}", admin), 201);
            ok(call("POST", "/orgs/g" + ns + "/employees", "{\"employeeId\":\"e" + ns + "\",\"name\":\""
                    + bare.secret("employee") + "\",\"email\":\"" + bare.secret("employeemail") + "@example.com\"}",
                    admin), 201);
            ok(call("PUT", "/orgs/g" + ns + "/teams/tm" + ns + "/members/e" + ns, "{\"role\":\"" + bare.secret("role")
                    + "\"}", admin), 201);
            ok(call("POST", "/users/o" + ns + "/tags", "{\"tagId\":\"tg" + ns + "\",\"name\":\"" + bare.secret("tag")
                    + "\"}", owner), 201);
            ok(call("POST", "/users/o" + ns + "/favourites", "{\"favouriteId\":\"f" + ns + "\",\"type\":\"link\","
                    + "\"title\":\"Trip " + bare.secret("favourite") + "\",\"contentUrl\":\"https://example.com/"
                    + bare.secret("url") + "\"}", owner), 201);
            ok(call("PUT", "/users/o" + ns + "/favourites/f" + ns + "/tags/tg" + ns, null, owner), 201);
            return new Namespace(ns, tokens, comment.json().path("commentId").asText());
        }

        /** The token of a kind of caller; for a forged or an expired one, of the caller the route would admit. */
        String token(Who who, Rule rule) {
            return switch (who) {
                case ANONYMOUS -> null;
                case OWNER, OTHER_USER, ADMIN -> tokens.get(who);
                case FORGED -> forged(rightClaims(rule).build());
                case EXPIRED -> auth.sign(rightClaims(rule)
                        .issueTime(Date.from(Instant.now().minus(Duration.ofHours(1))))
                        .expirationTime(Date.from(Instant.now().minusSeconds(60))).build());
            };
        }

        private JWTClaimsSet.Builder rightClaims(Rule rule) {
            Instant now = Instant.now();
            boolean admin = rule == Rule.ADMIN;
            JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(LocalAuth.ISSUER)
                    .audience(LocalAuth.AUDIENCE).subject(admin ? "a" + ns : "o" + ns).issueTime(Date.from(now))
                    .expirationTime(Date.from(now.plus(Duration.ofMinutes(30)))).claim("token_use", "access");
            if (admin) {
                claims.claim(LocalAuth.GROUPS_CLAIM, List.of(LocalAuth.ADMIN_GROUP));
            }
            return claims;
        }

        String path(Case route) {
            return route.path().replace("{o}", owner()).replace("{c}", commentId == null ? "none" : commentId)
                    .replace("{ns}", ns);
        }

        String body(Case route) {
            return route.body() == null ? null : route.body().replace("{ns}", ns);
        }
    }

    private static String forged(JWTClaimsSet claims) {
        try {
            SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(auth.keyId())
                    .type(JOSEObjectType.JWT).build(), claims);
            jwt.sign(new RSASSASigner(forger));
            return jwt.serialize();
        } catch (com.nimbusds.jose.JOSEException e) {
            throw new IllegalStateException(e);
        }
    }

    record Reply(int status, JsonNode json, String text) {
    }

    static Reply call(String method, String path, String body, String token) {
        try {
            HttpResponse<String> response = ApiCalls.send(runner.baseUri(), method, path, body, token);
            JsonNode json;
            try {
                json = JSON.readTree(response.body());
            } catch (IOException notJson) {
                json = null;
            }
            return new Reply(response.statusCode(), json, response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static void ok(Reply reply, int status) {
        assertThat(reply.status()).as("fixture: %s", reply.text()).isEqualTo(status);
    }

    static Stream<Case> routes() {
        return cases().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void everyKindOfCaller_getsExactlyTheStatusOfTheRoutesRule(Case route) {
        for (Who who : Who.values()) {
            int expected = expected(route, who);
            boolean admitted = expected == route.status();
            // A write that goes through changes the data: it gets data of its own. The reads share theirs.
            Namespace data = route.writes() && admitted
                    ? Namespace.create(route.rule() != Rule.NEW_USER) : route.rule() == Rule.NEW_USER
                    ? Namespace.create(false) : shared;
            Reply reply = call(route.method(), data.path(route), data.body(route), data.token(who, route.rule()));
            assertThat(reply.status()).as("%s %s as %s: %s", route.method(), data.path(route), who, reply.text())
                    .isEqualTo(expected);
            if (expected == 401 || expected == 403) {
                assertThat(reply.json().path("error").path("code").asText())
                        .isEqualTo(expected == 401 ? "unauthorized" : "forbidden");
                assertThat(reply.json().path("error").path("message").asText()).isNotBlank();
            }
        }
    }

    @Test
    void everyRouteTheWriterServes_hasACase_andEveryCaseIsARoute() {
        Reply routes = call("GET", "/dashboard/routes.json", null, null);
        ok(routes, 200);
        Set<String> served = new LinkedHashSet<>();
        routes.json().path("routes").forEach(route -> served.add(route.asText()));
        served.removeAll(LOCAL_ONLY);
        assertThat(cases().stream().map(Case::route).toList()).containsExactlyInAnyOrderElementsOf(served);
    }

    @Test
    void noPublicAnswer_holdsAValueOnlyAProtectedRouteShows() throws Exception {
        Namespace data = shared;
        String learner = auth.mint("l" + data.ns(), false, Duration.ofMinutes(30), Instant.now());
        ok(call("POST", "/users", "{\"name\":\"" + data.secret("namel") + "\",\"email\":\"" + data.secret("maill")
                + "@example.com\"}", learner), 201);
        ok(call("PUT", "/users/l" + data.ns() + "/items/i" + data.ns(), "{\"state\":\"completed\",\"correct\":true}",
                learner), 201);
        ok(call("DELETE", "/songs/s" + data.ns() + "/downloads/d" + data.ns(), null, data.tokens().get(Who.ADMIN)),
                200);
        // Everything derived, and the feed holding what an admin sees of the namespace (its last write first).
        runner.awaitDrained(Api.DRAIN_TIMEOUT);
        String admin = data.tokens().get(Who.ADMIN);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        List<String> adminSees = List.of(data.secret("role"), data.secret("tag"), data.secret("favourite"),
                data.secret("employee"), data.secret("downloader"), "l" + data.ns());
        while (!adminSeesAll(call("GET", "/activity?limit=100", null, admin).text(), adminSees)) {
            assertThat(System.nanoTime()).as("the admin's feed never showed " + adminSees).isLessThan(deadline);
            Thread.sleep(200);
        }

        for (Case route : cases()) {
            if (route.rule() != Rule.READ_SIDE) {
                continue;
            }
            for (Who who : Who.values()) {
                Reply reply = call(route.method(), data.path(route), null, data.token(who, route.rule()));
                assertThat(reply.status()).as("%s as %s", route, who).isEqualTo(route.status());
                boolean everything = route.route().equals("GET /activity") && who == Who.ADMIN;
                if (everything) {
                    continue; // an admin's feed is the one public route that shows everything to an admin
                }
                // The secrets, the commenter (who wrote which comment: no public route says) and the learner (whose
                // progress only they and an admin read).
                assertThat(reply.text()).as("%s as %s", route, who).doesNotContain("secret" + data.ns())
                        .doesNotContain("t" + data.ns()).doesNotContain("l" + data.ns());
            }
        }
    }

    private static boolean adminSeesAll(String feed, List<String> values) {
        return values.stream().allMatch(feed::contains);
    }
}
