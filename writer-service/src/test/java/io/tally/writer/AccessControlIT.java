package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.ShardSettings;
import io.tally.testkit.LocalDynamoDb;
import io.tally.core.http.Authorization;
import io.tally.core.http.Json;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Access control on the Lambda path: the real {@link WriterHandler} fed API Gateway HTTP API events whose
 * {@code requestContext.authorizer.jwt} carries the claims API Gateway's JWT authorizer verified (every value a
 * string, a list claim as {@code [a b]}), against DynamoDB Local. Every route of every route class: without claims,
 * with another user's, with a non-admin's or a non-owner admin's where they do not suffice, and with the right ones.
 */
class AccessControlIT {
    static final String U1 = "u1";
    static final String U2 = "u2";
    private static final String MONTH = LocalDate.now(ZoneOffset.UTC).toString().substring(0, 7);
    private static final String TODAY = LocalDate.now(ZoneOffset.UTC).toString();

    /** Whom a route admits besides the anonymous caller (always refused unless the read side is public). */
    enum Rule { READ_SIDE, SIGNED_IN, OWNER, OWNER_OR_ADMIN, ADMIN, AUTHOR, AUTHOR_OWNER_OR_ADMIN }

    /** One route: its class, the request, its rule, and the status the right caller gets. */
    record Case(String routeClass, String method, String path, String body, Rule rule, int status) {
        @Override
        public String toString() {
            return routeClass + ": " + method + " " + path;
        }
    }

    static Stream<Case> routes() {
        List<Case> cases = new ArrayList<>();
        // UserRoutes (POST /users has its own tests below)
        cases.add(new Case("UserRoutes", "GET", "/users/u1", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("UserRoutes", "PATCH", "/users/u1", "{\"name\":\"One\"}", Rule.OWNER, 200));
        // PostRoutes
        cases.add(new Case("PostRoutes", "POST", "/users/u1/posts", "{\"postId\":\"p2\",\"title\":\"T\",\"body\":\"B\"}",
                Rule.OWNER, 201));
        cases.add(new Case("PostRoutes", "GET", "/users/u1/posts", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("PostRoutes", "GET", "/users/u1/posts/p1", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("PostRoutes", "PATCH", "/users/u1/posts/p1", "{\"title\":\"T2\"}", Rule.OWNER, 200));
        cases.add(new Case("PostRoutes", "DELETE", "/users/u1/posts/p1", null, Rule.OWNER, 200));
        // CommentRoutes
        cases.add(new Case("CommentRoutes", "POST", "/users/u1/posts/p1/comments", "{\"text\":\"Hi\"}", Rule.AUTHOR,
                201));
        cases.add(new Case("CommentRoutes", "GET", "/users/u1/posts/p1/comments", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("CommentRoutes", "DELETE", "/users/u1/posts/p1/comments/{c1}", null,
                Rule.AUTHOR_OWNER_OR_ADMIN, 200));
        // PostProjectionRoutes
        cases.add(new Case("PostProjectionRoutes", "GET", "/stats/posts/p1", null, Rule.READ_SIDE, 200));
        cases.add(new Case("PostProjectionRoutes", "GET", "/posts?status=created", null, Rule.READ_SIDE, 200));
        // ItemRoutes
        cases.add(new Case("ItemRoutes", "PUT", "/items/65", "{\"score\":80,\"selector\":\"global-cycle:5\"}",
                Rule.ADMIN, 201));
        cases.add(new Case("ItemRoutes", "GET", "/items/55", null, Rule.SIGNED_IN, 200));
        cases.add(new Case("ItemRoutes", "DELETE", "/items/55", null, Rule.ADMIN, 200));
        // UserItemRoutes
        cases.add(new Case("UserItemRoutes", "PUT", "/users/u1/items/55", "{\"state\":\"in-progress\"}", Rule.OWNER, 200));
        cases.add(new Case("UserItemRoutes", "GET", "/users/u1/items?state=assigned", null, Rule.OWNER_OR_ADMIN, 200));
        // SelectorRoutes
        cases.add(new Case("SelectorRoutes", "GET", "/selectors/global-cycle:5", null, Rule.READ_SIDE, 200));
        // SongRoutes
        cases.add(new Case("SongRoutes", "PUT", "/songs/s2", "{\"title\":\"Two\"}", Rule.ADMIN, 201));
        cases.add(new Case("SongRoutes", "GET", "/songs/s1", null, Rule.SIGNED_IN, 200));
        cases.add(new Case("SongRoutes", "POST", "/songs/s1/downloads", "{\"downloadId\":\"d2\"}", Rule.ADMIN, 201));
        cases.add(new Case("SongRoutes", "DELETE", "/songs/s1/downloads/d1", null, Rule.ADMIN, 200));
        cases.add(new Case("SongRoutes", "GET", "/stats/songs/s1", null, Rule.READ_SIDE, 200));
        cases.add(new Case("SongRoutes", "GET", "/stats/songs/s1/days?from=" + TODAY + "&to=" + TODAY, null,
                Rule.READ_SIDE, 200));
        cases.add(new Case("SongRoutes", "GET", "/stats/downloads/days?from=" + TODAY + "&to=" + TODAY, null,
                Rule.READ_SIDE, 200));
        cases.add(new Case("SongRoutes", "GET", "/charts/downloads/" + MONTH, null, Rule.READ_SIDE, 200));
        // StatsRoutes
        cases.add(new Case("StatsRoutes", "GET", "/stats/users/u1", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("StatsRoutes", "GET", "/stats/global", null, Rule.READ_SIDE, 200));
        // OrgRoutes
        cases.add(new Case("OrgRoutes", "POST", "/orgs", "{\"orgId\":\"xyz\",\"name\":\"XYZ\"}", Rule.ADMIN, 201));
        cases.add(new Case("OrgRoutes", "GET", "/orgs/abc", null, Rule.ADMIN, 200));
        cases.add(new Case("OrgRoutes", "PATCH", "/orgs/abc", "{\"name\":\"ABC2\"}", Rule.ADMIN, 200));
        cases.add(new Case("OrgRoutes", "GET", "/stats/orgs/abc", null, Rule.READ_SIDE, 200));
        cases.add(new Case("OrgRoutes", "GET", "/stats/teams/web", null, Rule.READ_SIDE, 200));
        // TeamRoutes
        cases.add(new Case("TeamRoutes", "POST", "/orgs/abc/teams", "{\"teamId\":\"ops\",\"name\":\"ops\"}", Rule.ADMIN, 201));
        cases.add(new Case("TeamRoutes", "GET", "/orgs/abc/teams", null, Rule.ADMIN, 200));
        cases.add(new Case("TeamRoutes", "DELETE", "/orgs/abc/teams/web", null, Rule.ADMIN, 200));
        cases.add(new Case("TeamRoutes", "GET", "/teams/web", null, Rule.ADMIN, 200));
        // EmployeeRoutes
        cases.add(new Case("EmployeeRoutes", "POST", "/orgs/abc/employees",
                "{\"employeeId\":\"allie\",\"name\":\"Allie\",\"email\":\"allie@example.com\"}", Rule.ADMIN, 201));
        cases.add(new Case("EmployeeRoutes", "GET", "/orgs/abc/employees", null, Rule.ADMIN, 200));
        cases.add(new Case("EmployeeRoutes", "DELETE", "/orgs/abc/employees/maureen", null, Rule.ADMIN, 200));
        cases.add(new Case("EmployeeRoutes", "GET", "/employees/maureen", null, Rule.ADMIN, 200));
        // MembershipRoutes
        cases.add(new Case("MembershipRoutes", "PUT", "/orgs/abc/teams/web/members/maureen", "{\"role\":\"lead\"}",
                Rule.ADMIN, 200));
        cases.add(new Case("MembershipRoutes", "DELETE", "/orgs/abc/teams/web/members/maureen", null, Rule.ADMIN, 200));
        cases.add(new Case("MembershipRoutes", "GET", "/orgs/abc/teams/web/members", null, Rule.ADMIN, 200));
        cases.add(new Case("MembershipRoutes", "GET", "/employees/maureen/teams", null, Rule.ADMIN, 200));
        // TagRoutes
        cases.add(new Case("TagRoutes", "POST", "/users/u1/tags", "{\"tagId\":\"t2\",\"name\":\"Work\"}", Rule.OWNER, 201));
        cases.add(new Case("TagRoutes", "GET", "/users/u1/tags", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("TagRoutes", "PATCH", "/users/u1/tags/t1", "{\"name\":\"Trips\"}", Rule.OWNER, 200));
        cases.add(new Case("TagRoutes", "DELETE", "/users/u1/tags/t1", null, Rule.OWNER, 200));
        // FavouriteRoutes
        cases.add(new Case("FavouriteRoutes", "GET", "/users/u1/favourites/search?q=trip", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("FavouriteRoutes", "POST", "/users/u1/favourites",
                "{\"favouriteId\":\"f2\",\"type\":\"note\",\"title\":\"Note\"}", Rule.OWNER, 201));
        cases.add(new Case("FavouriteRoutes", "GET", "/users/u1/favourites", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("FavouriteRoutes", "GET", "/users/u1/favourites/f1", null, Rule.OWNER_OR_ADMIN, 200));
        cases.add(new Case("FavouriteRoutes", "DELETE", "/users/u1/favourites/f1", null, Rule.OWNER, 200));
        cases.add(new Case("FavouriteRoutes", "GET", "/stats/users/u1/favourites", null, Rule.OWNER_OR_ADMIN, 200));
        // LinkRoutes
        cases.add(new Case("LinkRoutes", "PUT", "/users/u1/favourites/f1/tags/t1", null, Rule.OWNER, 200));
        cases.add(new Case("LinkRoutes", "DELETE", "/users/u1/favourites/f1/tags/t1", null, Rule.OWNER, 200));
        cases.add(new Case("LinkRoutes", "GET", "/users/u1/favourites/f1/tags", null, Rule.OWNER_OR_ADMIN, 200));
        // ActivityRoutes, OpenApiRoutes, DashboardRoutes
        cases.add(new Case("ActivityRoutes", "GET", "/activity", null, Rule.READ_SIDE, 200));
        cases.add(new Case("OpenApiRoutes", "GET", "/openapi.json", null, Rule.READ_SIDE, 200));
        cases.add(new Case("DashboardRoutes", "GET", "/dashboard", null, Rule.READ_SIDE, 200));
        cases.add(new Case("DashboardRoutes", "GET", "/dashboard/routes.json", null, Rule.READ_SIDE, 200));
        cases.add(new Case("DashboardRoutes", "GET", "/dashboard/sections.json", null, Rule.READ_SIDE, 200));
        cases.add(new Case("DashboardRoutes", "GET", "/dashboard/dashboard.js", null, Rule.READ_SIDE, 200));
        return cases.stream();
    }

    /** Claims as API Gateway's JWT authorizer passes them for a Cognito access token. */
    static Map<String, String> claims(String subject, String... groups) {
        Map<String, String> claims = new LinkedHashMap<>();
        claims.put("sub", subject);
        claims.put("iss", "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_example");
        claims.put("client_id", "exampleclientid");
        claims.put("token_use", "access");
        claims.put("scope", "aws.cognito.signin.user.admin");
        claims.put("exp", "4102444800");
        claims.put("iat", "1700000000");
        if (groups.length > 0) {
            claims.put("cognito:groups", "[" + String.join(" ", groups) + "]");
        }
        return claims;
    }

    static final Map<String, String> OWNER = claims(U1);
    static final Map<String, String> OTHER_USER = claims(U2, "readers");
    static final Map<String, String> ADMIN = claims("boss", "staff", "admin");

    /** The deployments with the fixture that reads share: a GET changes nothing, so they need no fixture of their own. */
    private static final Map<Boolean, Deployment> FOR_READS = new ConcurrentHashMap<>();

    /** A fresh deployment with the fixture for a route that writes; the shared one for a read. */
    static Deployment deploymentFor(Case route, boolean publicReadSide) {
        return route.method().equals("GET")
                ? FOR_READS.computeIfAbsent(publicReadSide, open -> new Deployment(open).withFixture())
                : new Deployment(publicReadSide).withFixture();
    }

    /** A deployment's writer: authorization on, the read side public or not. */
    static final class Deployment {
        final WriterHandler handler;
        final Map<String, String> ids = new LinkedHashMap<>();

        Deployment(boolean publicReadSide) {
            String table = LocalDynamoDb.createTable("access");
            String activity = LocalDynamoDb.createActivityTable();
            handler = new WriterHandler(new WriterApi(LocalDynamoDb.client(), table, Clock.systemUTC(),
                    WriterConfig.DEVELOPMENT_SECRET, ShardSettings.DEFAULTS, activity,
                    Authorization.required(publicReadSide)));
        }

        /** u1 and u2 (ids from their tokens), u1's post, comment, item state, tag, favourite and link; the admin's. */
        Deployment withFixture() {
            expect(call("POST", "/users", "{\"name\":\"One\",\"email\":\"one@example.com\"}", OWNER), 201);
            expect(call("POST", "/users", "{\"name\":\"Two\",\"email\":\"two@example.com\"}", OTHER_USER), 201);
            expect(call("POST", "/users/u1/posts", "{\"postId\":\"p1\",\"title\":\"T\",\"body\":\"B\"}", OWNER), 201);
            Response comment = call("POST", "/users/u1/posts/p1/comments", "{\"authorId\":\"u1\",\"text\":\"Hi\"}",
                    OWNER);
            expect(comment, 201);
            ids.put("{c1}", comment.body().path("commentId").asText());
            expect(call("PUT", "/items/55", "{\"score\":70,\"selector\":\"global-cycle:5\"}", ADMIN), 201);
            expect(call("PUT", "/users/u1/items/55", "{\"state\":\"assigned\"}", OWNER), 201);
            expect(call("PUT", "/songs/s1", "{\"title\":\"One\"}", ADMIN), 201);
            expect(call("POST", "/songs/s1/downloads", "{\"downloadId\":\"d1\"}", ADMIN), 201);
            expect(call("POST", "/orgs", "{\"orgId\":\"abc\",\"name\":\"ABC\"}", ADMIN), 201);
            expect(call("POST", "/orgs/abc/teams", "{\"teamId\":\"web\",\"name\":\"web\"}", ADMIN), 201);
            expect(call("POST", "/orgs/abc/employees",
                    "{\"employeeId\":\"maureen\",\"name\":\"Maureen\",\"email\":\"m@example.com\"}", ADMIN), 201);
            expect(call("PUT", "/orgs/abc/teams/web/members/maureen", "{\"role\":\"dev\"}", ADMIN), 201);
            expect(call("POST", "/users/u1/tags", "{\"tagId\":\"t1\",\"name\":\"Travel\"}", OWNER), 201);
            expect(call("POST", "/users/u1/favourites", "{\"favouriteId\":\"f1\",\"type\":\"link\",\"title\":\"Trip\"}",
                    OWNER), 201);
            expect(call("PUT", "/users/u1/favourites/f1/tags/t1", null, OWNER), 201);
            return this;
        }

        private static void expect(Response response, int status) {
            assertThat(response.status()).as("fixture: %s", response.body()).isEqualTo(status);
        }

        Response call(Case route, Map<String, String> claims) {
            String path = route.path();
            for (Map.Entry<String, String> id : ids.entrySet()) {
                path = path.replace(id.getKey(), id.getValue());
            }
            return call(route.method(), path, route.body(), claims);
        }

        Response call(String method, String path, String body, Map<String, String> claims) {
            return call(method, path, body, claims, Map.of());
        }

        /** {@code claims} null: a route without an authorizer (or no token on a public one). */
        Response call(String method, String path, String body, Map<String, String> claims,
                Map<String, String> extraHeaders) {
            String rawPath = path;
            Map<String, String> query = null;
            int q = path.indexOf('?');
            if (q >= 0) {
                rawPath = path.substring(0, q);
                query = new LinkedHashMap<>();
                for (String pair : path.substring(q + 1).split("&")) {
                    String[] parts = pair.split("=", 2);
                    query.put(parts[0], parts.length > 1 ? parts[1] : "");
                }
            }
            Map<String, String> headers = new LinkedHashMap<>(Map.of("content-type", "application/json"));
            if (claims != null) {
                // API Gateway passes the verified token on in its identity source, the authorization header.
                headers.put("authorization", "Bearer " + token(claims));
            }
            headers.putAll(extraHeaders);
            APIGatewayV2HTTPEvent.RequestContext.RequestContextBuilder context =
                    APIGatewayV2HTTPEvent.RequestContext.builder()
                            .withRouteKey("$default")
                            .withRequestId("test")
                            .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                    .withMethod(method).withPath(rawPath).withProtocol("HTTP/1.1")
                                    .withSourceIp("127.0.0.1").build());
            if (claims != null) {
                context.withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                        .withJwt(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT.builder()
                                .withClaims(claims).build())
                        .build());
            }
            APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                    .withVersion("2.0")
                    .withRouteKey("$default")
                    .withRawPath(rawPath)
                    .withRawQueryString(q >= 0 ? path.substring(q + 1) : "")
                    .withQueryStringParameters(query)
                    .withHeaders(headers)
                    .withBody(body)
                    .withIsBase64Encoded(false)
                    .withRequestContext(context.build())
                    .build();
            return Response.of(handler.handleRequest(event, null));
        }
    }

    /**
     * The token whose claims these are, as its issuer wrote it: a list claim an array (the test's names hold no
     * space), the rest strings. Unsigned: API Gateway verified it before the function runs.
     */
    static String token(Map<String, String> claims) {
        com.fasterxml.jackson.databind.node.ObjectNode payload = Json.object();
        claims.forEach((name, value) -> {
            if (value.startsWith("[") && value.endsWith("]")) {
                var array = payload.putArray(name);
                for (String element : value.substring(1, value.length() - 1).split(" ")) {
                    if (!element.isEmpty()) {
                        array.add(element);
                    }
                }
            } else {
                payload.put(name, value);
            }
        });
        java.util.Base64.Encoder base64 = java.util.Base64.getUrlEncoder().withoutPadding();
        return base64.encodeToString("{\"alg\":\"RS256\",\"kid\":\"test\"}".getBytes(
                java.nio.charset.StandardCharsets.UTF_8)) + "." + base64.encodeToString(payload.toString().getBytes(
                java.nio.charset.StandardCharsets.UTF_8)) + ".c2lnbmF0dXJl";
    }

    record Response(int status, JsonNode body, Map<String, String> headers) {
        static Response of(APIGatewayV2HTTPResponse response) {
            try {
                return new Response(response.getStatusCode(), Json.MAPPER.readTree(response.getBody()),
                        response.getHeaders());
            } catch (java.io.IOException e) {
                // The dashboard's page and files are not JSON.
                return new Response(response.getStatusCode(), Json.object().put("text", response.getBody()),
                        response.getHeaders());
            }
        }

        String errorCode() {
            return body.path("error").path("code").asText(null);
        }
    }

    static void assertUnauthorized(Response response, Case route) {
        assertThat(response.status()).as("%s: %s", route, response.body()).isEqualTo(401);
        assertThat(response.errorCode()).isEqualTo("unauthorized");
        assertThat(response.body().path("error").path("message").asText()).isNotBlank();
        assertThat(response.headers()).containsEntry("WWW-Authenticate", "Bearer");
    }

    static void assertForbidden(Response response, Case route) {
        assertThat(response.status()).as("%s: %s", route, response.body()).isEqualTo(403);
        assertThat(response.errorCode()).isEqualTo("forbidden");
        assertThat(response.body().path("error").path("message").asText()).isNotBlank();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void everyRoute_refusesWhomItsRuleExcludes_andServesWhomItAdmits(Case route) {
        Deployment deployment = deploymentFor(route, true);
        Response anonymous = deployment.call(route, null);
        // A token in the header is not a verified claim: only the authorizer's claims count.
        Response headerOnly = deployment.call(route.method(), route.path().replace("{c1}",
                        deployment.ids.getOrDefault("{c1}", "")), route.body(), null,
                Map.of("authorization", "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1MSIsImNvZ25pdG86Z3JvdXBzIjpbImFkbWluIl19.",
                        "x-user-id", U1));
        if (route.rule() == Rule.READ_SIDE) {
            assertThat(anonymous.status()).as("%s is public: %s", route, anonymous.body()).isEqualTo(route.status());
            assertThat(deployment.call(route, OTHER_USER).status()).as(route.toString()).isEqualTo(route.status());
            return;
        }
        assertUnauthorized(anonymous, route);
        assertUnauthorized(headerOnly, route);
        switch (route.rule()) {
            case SIGNED_IN -> {
                assertThat(deployment.call(route, OTHER_USER).status()).as(route.toString()).isEqualTo(route.status());
                assertThat(deployment.call(route, OWNER).status()).as(route.toString()).isEqualTo(route.status());
            }
            case OWNER -> {
                assertForbidden(deployment.call(route, OTHER_USER), route);
                assertForbidden(deployment.call(route, ADMIN), route);
                Response owner = deployment.call(route, OWNER);
                assertThat(owner.status()).as("%s as its owner: %s", route, owner.body()).isEqualTo(route.status());
            }
            case OWNER_OR_ADMIN -> {
                assertForbidden(deployment.call(route, OTHER_USER), route);
                Response owner = deployment.call(route, OWNER);
                assertThat(owner.status()).as("%s as its owner: %s", route, owner.body()).isEqualTo(route.status());
                Response admin = deployment.call(route, ADMIN);
                assertThat(admin.status()).as("%s as an admin: %s", route, admin.body()).isEqualTo(route.status());
            }
            case ADMIN -> {
                assertForbidden(deployment.call(route, OTHER_USER), route);
                assertForbidden(deployment.call(route, OWNER), route);
                Response admin = deployment.call(route, ADMIN);
                assertThat(admin.status()).as("%s as an admin: %s", route, admin.body()).isEqualTo(route.status());
            }
            case AUTHOR -> {
                // Any signed-in user with a user of its own, as itself.
                Response other = deployment.call(route, OTHER_USER);
                assertThat(other.status()).as("%s as another user: %s", route, other.body()).isEqualTo(route.status());
                Response owner = deployment.call(route, OWNER);
                assertThat(owner.status()).as("%s as its owner: %s", route, owner.body()).isEqualTo(route.status());
            }
            case AUTHOR_OWNER_OR_ADMIN -> {
                // The fixture's comment is the owner's own: another user may not, the owner and an admin may.
                assertForbidden(deployment.call(route, OTHER_USER), route);
                Response owner = deployment.call(route, OWNER);
                assertThat(owner.status()).as("%s as its owner: %s", route, owner.body()).isEqualTo(route.status());
                Deployment fresh = deploymentFor(route, true);
                Response admin = fresh.call(route, ADMIN);
                assertThat(admin.status()).as("%s as an admin: %s", route, admin.body()).isEqualTo(route.status());
            }
            default -> throw new AssertionError(route.rule());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routes")
    void privateReadSide_needsAToken(Case route) {
        if (route.rule() != Rule.READ_SIDE) {
            return;
        }
        Deployment deployment = deploymentFor(route, false);
        assertUnauthorized(deployment.call(route, null), route);
        Response signedIn = deployment.call(route, OTHER_USER);
        assertThat(signedIn.status()).as("%s: %s", route, signedIn.body()).isEqualTo(route.status());
    }

    @Test
    void everyRouteOfTheWriter_isCoveredHere() {
        List<String> covered = routes().map(route -> route.method() + " " + template(route.path())).toList();
        List<String> declared = new ArrayList<>(RouteAccessTest.EXPECTED.keySet());
        declared.remove("POST /users"); // its own tests below
        for (String route : declared) {
            assertThat(covered).as("a case for %s", route).anyMatch(c -> matches(route, c));
        }
    }

    @Test
    void newUser_isTheTokensSubject_byDefaultOrByName_neverAnotherOne() {
        Deployment deployment = new Deployment(true);
        Case route = new Case("UserRoutes", "POST", "/users", null, Rule.OWNER, 201);
        assertUnauthorized(deployment.call("POST", "/users", "{\"name\":\"One\",\"email\":\"one@example.com\"}", null),
                route);
        assertForbidden(deployment.call("POST", "/users",
                "{\"userId\":\"u2\",\"name\":\"One\",\"email\":\"one@example.com\"}", OWNER), route);
        assertForbidden(deployment.call("POST", "/users",
                "{\"userId\":\"u1\",\"name\":\"One\",\"email\":\"one@example.com\"}", ADMIN), route);
        Response named = deployment.call("POST", "/users",
                "{\"userId\":\"u1\",\"name\":\"One\",\"email\":\"one@example.com\"}", OWNER);
        assertThat(named.status()).isEqualTo(201);
        assertThat(named.body().path("userId").asText()).isEqualTo(U1);
        Response defaulted = deployment.call("POST", "/users", "{\"name\":\"Two\",\"email\":\"two@example.com\"}",
                OTHER_USER);
        assertThat(defaulted.status()).isEqualTo(201);
        assertThat(defaulted.body().path("userId").asText()).as("the subject, not a generated id").isEqualTo(U2);
    }

    @Test
    void adminScope_grantsWhatTheAdminGroupGrants_andAListClaimIsReadAsApiGatewayWritesIt() {
        Deployment deployment = new Deployment(true);
        Map<String, String> service = claims("svc");
        service.put("scope", "openid admin");
        assertThat(deployment.call("PUT", "/songs/s9", "{\"title\":\"Nine\"}", service).status()).isEqualTo(201);
        // "[administrators]" is not "[admin]": a group is matched whole.
        Map<String, String> lookalike = claims("u3", "administrators", "admins");
        Case route = new Case("SongRoutes", "PUT", "/songs/s9", null, Rule.ADMIN, 200);
        assertForbidden(deployment.call("PUT", "/songs/s9", "{\"title\":\"Nine\"}", lookalike), route);
    }

    @Test
    void aComment_isWrittenAsTheCaller_andDeletedByItsAuthor_thePostsOwner_orAnAdmin() {
        Deployment deployment = new Deployment(true).withFixture();
        Case write = new Case("CommentRoutes", "POST", "/users/u1/posts/p1/comments", null, Rule.AUTHOR, 201);
        // Impersonation: alice (u1) says bob (u2) wrote it.
        assertForbidden(deployment.call("POST", "/users/u1/posts/p1/comments",
                "{\"authorId\":\"u2\",\"text\":\"Bob says\"}", OWNER), write);
        assertForbidden(deployment.call("POST", "/users/u1/posts/p1/comments",
                "{\"authorId\":\"u1\",\"text\":\"Not me\"}", OTHER_USER), write);
        assertUnauthorized(deployment.call("POST", "/users/u1/posts/p1/comments", "{\"text\":\"Hi\"}", null), write);
        Response named = deployment.call("POST", "/users/u1/posts/p1/comments",
                "{\"authorId\":\"u2\",\"text\":\"Bob, named\"}", OTHER_USER);
        assertThat(named.status()).as(named.body().toString()).isEqualTo(201);
        assertThat(named.body().path("authorId").asText()).isEqualTo(U2);
        Response defaulted = deployment.call("POST", "/users/u1/posts/p1/comments", "{\"text\":\"Bob, left out\"}",
                OTHER_USER);
        assertThat(defaulted.status()).as(defaulted.body().toString()).isEqualTo(201);
        assertThat(defaulted.body().path("authorId").asText()).as("the token's subject").isEqualTo(U2);
        Map<String, String> stranger = claims("u3");
        expectStatus(deployment.call("POST", "/users", "{\"name\":\"Three\",\"email\":\"three@example.com\"}",
                stranger), 201);

        Case delete = new Case("CommentRoutes", "DELETE", "/users/u1/posts/p1/comments/{c}", null,
                Rule.AUTHOR_OWNER_OR_ADMIN, 200);
        String byBob = "/users/u1/posts/p1/comments/" + named.body().path("commentId").asText();
        assertForbidden(deployment.call("DELETE", byBob, null, stranger), delete);
        assertUnauthorized(deployment.call("DELETE", byBob, null, null), delete);
        expectStatus(deployment.call("DELETE", byBob, null, OTHER_USER), 200);
        String byBobAgain = "/users/u1/posts/p1/comments/" + defaulted.body().path("commentId").asText();
        expectStatus(deployment.call("DELETE", byBobAgain, null, OWNER), 200);
        Response third = deployment.call("POST", "/users/u1/posts/p1/comments", "{\"text\":\"Three\"}", stranger);
        expectStatus(third, 201);
        expectStatus(deployment.call("DELETE", "/users/u1/posts/p1/comments/" + third.body().path("commentId").asText(),
                null, ADMIN), 200);
        // Bob, on his own post, may not delete alice's comment on alice's post.
        expectStatus(deployment.call("POST", "/users/u2/posts", "{\"postId\":\"p9\",\"title\":\"T\",\"body\":\"B\"}",
                OTHER_USER), 201);
        assertForbidden(deployment.call("DELETE", "/users/u1/posts/p1/comments/" + deployment.ids.get("{c1}"), null,
                OTHER_USER), delete);
    }

    @Test
    void withoutAccessControl_aCommentNamesItsAuthor_asTheContractsTableSays() {
        String table = LocalDynamoDb.createTable("open-comments");
        WriterHandler open = new WriterHandler(new WriterApi(LocalDynamoDb.client(), table, Clock.systemUTC(),
                WriterConfig.DEVELOPMENT_SECRET));
        Response response = Response.of(open.handleRequest(event("POST", "/users/u1/posts/p1/comments",
                "{\"text\":\"Hi\"}"), null));
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.body().path("error").path("field").asText()).isEqualTo("authorId");
    }

    private static APIGatewayV2HTTPEvent event(String method, String path, String body) {
        return APIGatewayV2HTTPEvent.builder()
                .withRawPath(path)
                .withBody(body)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod(method).build())
                        .build())
                .build();
    }

    private static void expectStatus(Response response, int status) {
        assertThat(response.status()).as(response.body().toString()).isEqualTo(status);
    }

    @Test
    void aGroupIsMatchedWhole_asTheVerifiedTokenNamesIt_notByItsRendering() {
        Deployment deployment = new Deployment(true);
        Case route = new Case("SongRoutes", "PUT", "/songs/s9", null, Rule.ADMIN, 201);
        for (List<String> groups : List.of(List.of("ops,admin"), List.of("\"admin\""), List.of("not admin"),
                List.of("staff admin"), List.of("admin,ops"))) {
            Map<String, String> claims = claims("u3");
            claims.put("cognito:groups", "[" + String.join(" ", groups) + "]");
            com.fasterxml.jackson.databind.node.ObjectNode payload = Json.MAPPER.valueToTree(claims);
            var array = payload.putArray("cognito:groups");
            groups.forEach(array::add);
            java.util.Base64.Encoder base64 = java.util.Base64.getUrlEncoder().withoutPadding();
            String token = base64.encodeToString("{\"alg\":\"RS256\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    + "." + base64.encodeToString(payload.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8))
                    + ".c2ln";
            assertForbidden(deployment.call("PUT", "/songs/s9", "{\"title\":\"Nine\"}", claims,
                    Map.of("authorization", "Bearer " + token)), route);
            // The claims alone (no token to read the names from) grant no group either.
            assertForbidden(deployment.call("PUT", "/songs/s9", "{\"title\":\"Nine\"}", claims,
                    Map.of("authorization", "")), route);
        }
        assertThat(deployment.call("PUT", "/songs/s9", "{\"title\":\"Nine\"}", ADMIN).status()).isEqualTo(201);
    }

    @Test
    void aCognitoIdToken_isNoCaller_onlyAnAccessTokenIs() {
        Deployment deployment = new Deployment(true);
        Map<String, String> idToken = claims(U1);
        idToken.put("token_use", "id");
        idToken.remove("client_id");
        idToken.put("aud", "exampleclientid");
        Case route = new Case("UserRoutes", "POST", "/users", null, Rule.OWNER, 201);
        assertUnauthorized(deployment.call("POST", "/users", "{\"name\":\"One\",\"email\":\"one@example.com\"}",
                idToken), route);
        assertThat(deployment.call("POST", "/users", "{\"name\":\"One\",\"email\":\"one@example.com\"}", OWNER)
                .status()).isEqualTo(201);
    }

    @Test
    void authorizationOff_isOpenAsBefore_whateverClaimsArrive() {
        String table = LocalDynamoDb.createTable("open");
        WriterHandler open = new WriterHandler(new WriterApi(LocalDynamoDb.client(), table, Clock.systemUTC(),
                WriterConfig.DEVELOPMENT_SECRET));
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withRawPath("/users")
                .withBody("{\"name\":\"Ro\",\"email\":\"ro@example.com\"}")
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod("POST").build())
                        .withAuthorizer(APIGatewayV2HTTPEvent.RequestContext.Authorizer.builder()
                                .withJwt(APIGatewayV2HTTPEvent.RequestContext.Authorizer.JWT.builder()
                                        .withClaims(claims("someone")).build())
                                .build())
                        .build())
                .build();
        Response response = Response.of(open.handleRequest(event, null));
        assertThat(response.status()).isEqualTo(201);
        assertThat(response.body().path("userId").asText()).as("a generated id, as before").isNotEqualTo("someone");
    }

    private static String template(String path) {
        int q = path.indexOf('?');
        return q < 0 ? path : path.substring(0, q);
    }

    /** Whether a concrete path is an instance of a route template. */
    private static boolean matches(String route, String concrete) {
        String[] r = route.split("[ /]");
        String[] c = concrete.split("[ /]");
        if (r.length != c.length) {
            return false;
        }
        for (int i = 0; i < r.length; i++) {
            if (!(r[i].startsWith("{") && r[i].endsWith("}")) && !r[i].equals(c[i])) {
                return false;
            }
        }
        return true;
    }
}
