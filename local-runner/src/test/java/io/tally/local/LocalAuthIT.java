package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JOSEObjectType;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.tally.local.auth.JwksRoute;
import io.tally.local.auth.LocalAuth;
import io.tally.testkit.ApiCalls;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * {@code tally-local --auth} over real HTTP: the front verifies the bearer token with the local key and hands the
 * writer the claims as API Gateway would; one route of every route class, with no token, an expired one, another
 * user's, one of another issuer, one for another audience, one with a forged signature, and the right one.
 */
class LocalAuthIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static LocalRunner runner;
    private static LocalAuth auth;

    /** Whom a route admits. */
    enum Rule { READ_SIDE, SIGNED_IN, OWNER, OWNER_OR_ADMIN, ADMIN }

    record Case(String routeClass, String method, String path, String body, Rule rule, int status) {
        @Override
        public String toString() {
            return routeClass + ": " + method + " " + path;
        }
    }

    record Reply(int status, JsonNode json, String text, java.net.http.HttpHeaders headers) {
    }

    static Stream<Case> routeClasses() {
        return Stream.of(
                new Case("UserRoutes", "PATCH", "/users/u1", "{\"name\":\"One\"}", Rule.OWNER, 200),
                new Case("PostRoutes", "POST", "/users/u1/posts", "{\"title\":\"T\",\"body\":\"B\"}", Rule.OWNER, 201),
                new Case("CommentRoutes", "GET", "/users/u1/posts/p1/comments", null, Rule.OWNER_OR_ADMIN, 200),
                new Case("PostProjectionRoutes", "GET", "/posts?status=created", null, Rule.READ_SIDE, 200),
                new Case("ItemRoutes", "PUT", "/items/77", "{\"score\":7,\"selector\":\"back-catalogue\"}", Rule.ADMIN,
                        201),
                new Case("UserItemRoutes", "GET", "/users/u1/items?state=assigned", null, Rule.OWNER_OR_ADMIN, 200),
                new Case("SelectorRoutes", "GET", "/selectors/back-catalogue", null, Rule.READ_SIDE, 200),
                new Case("SongRoutes", "GET", "/songs/s1", null, Rule.SIGNED_IN, 200),
                new Case("StatsRoutes", "GET", "/stats/users/u1", null, Rule.OWNER_OR_ADMIN, 200),
                new Case("OrgRoutes", "GET", "/orgs/abc", null, Rule.ADMIN, 200),
                new Case("TeamRoutes", "GET", "/teams/web", null, Rule.ADMIN, 200),
                new Case("EmployeeRoutes", "GET", "/employees/maureen", null, Rule.ADMIN, 200),
                new Case("MembershipRoutes", "GET", "/orgs/abc/teams/web/members", null, Rule.ADMIN, 200),
                new Case("TagRoutes", "POST", "/users/u1/tags", "{\"name\":\"Work\"}", Rule.OWNER, 201),
                new Case("FavouriteRoutes", "GET", "/users/u1/favourites/f1", null, Rule.OWNER_OR_ADMIN, 200),
                new Case("LinkRoutes", "GET", "/users/u1/favourites/f1/tags", null, Rule.OWNER_OR_ADMIN, 200),
                new Case("ActivityRoutes", "GET", "/activity", null, Rule.READ_SIDE, 200),
                new Case("DashboardRoutes", "GET", "/dashboard", null, Rule.READ_SIDE, 200));
    }

    @BeforeAll
    static void start() {
        runner = LocalRunner.start(RunnerSettings.ephemeral().withAuth(true));
        auth = runner.auth().orElseThrow();
        String u1 = token("u1", false);
        String admin = token("boss", true);
        ok(call("POST", "/users", "{\"name\":\"One\",\"email\":\"one@example.com\"}", u1), 201);
        ok(call("POST", "/users", "{\"name\":\"Two\",\"email\":\"two@example.com\"}", token("u2", false)), 201);
        ok(call("POST", "/users/u1/posts", "{\"postId\":\"p1\",\"title\":\"T\",\"body\":\"B\"}", u1), 201);
        ok(call("PUT", "/items/55", "{\"score\":70,\"selector\":\"back-catalogue\"}", admin), 201);
        ok(call("PUT", "/users/u1/items/55", "{\"state\":\"assigned\"}", u1), 201);
        ok(call("PUT", "/songs/s1", "{\"title\":\"One\"}", admin), 201);
        ok(call("POST", "/orgs", "{\"orgId\":\"abc\",\"name\":\"ABC\"}", admin), 201);
        ok(call("POST", "/orgs/abc/teams", "{\"teamId\":\"web\",\"name\":\"web\"}", admin), 201);
        ok(call("POST", "/orgs/abc/employees", "{\"employeeId\":\"maureen\",\"name\":\"M\",\"email\":\"m@example.com\"}",
                admin), 201);
        ok(call("PUT", "/orgs/abc/teams/web/members/maureen", null, admin), 201);
        ok(call("POST", "/users/u1/favourites", "{\"favouriteId\":\"f1\",\"type\":\"link\",\"title\":\"Trip\"}", u1),
                201);
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    private static String token(String subject, boolean admin) {
        return auth.mint(subject, admin, Duration.ofMinutes(30), Instant.now());
    }

    private static void ok(Reply reply, int status) {
        assertThat(reply.status()).as("fixture: %s", reply.text()).isEqualTo(status);
    }

    static Reply call(String method, String path, String body, String token) {
        try {
            HttpResponse<String> response = ApiCalls.send(runner.baseUri(), method, path, body, token);
            JsonNode json;
            try {
                json = JSON.readTree(response.body());
            } catch (java.io.IOException notJson) {
                json = null;
            }
            return new Reply(response.statusCode(), json, response.body(), response.headers());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The claims a valid token for this route's right caller carries. */
    private static JWTClaimsSet.Builder rightClaims(Rule rule) {
        Instant now = Instant.now();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder().issuer(LocalAuth.ISSUER).audience(LocalAuth.AUDIENCE)
                .subject(rule == Rule.ADMIN ? "boss" : "u1").issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(Duration.ofMinutes(30))));
        if (rule == Rule.ADMIN) {
            claims.claim(LocalAuth.GROUPS_CLAIM, List.of(LocalAuth.ADMIN_GROUP));
        }
        return claims;
    }

    private static void assertUnauthorized(Reply reply, Case route, String what) {
        assertThat(reply.status()).as("%s with %s: %s", route, what, reply.text()).isEqualTo(401);
        assertThat(reply.json().path("error").path("code").asText()).isEqualTo("unauthorized");
        assertThat(reply.json().path("error").path("message").asText()).isNotBlank();
        assertThat(reply.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("routeClasses")
    void everyRouteClass_withEachKindOfToken(Case route) throws Exception {
        Instant now = Instant.now();
        String expired = auth.sign(rightClaims(route.rule()).issueTime(Date.from(now.minus(Duration.ofHours(2))))
                .expirationTime(Date.from(now.minus(Duration.ofHours(1)))).build());
        String otherIssuer = auth.sign(rightClaims(route.rule()).issuer("https://issuer.example").build());
        String otherAudience = auth.sign(rightClaims(route.rule()).audience("another-api").build());
        RSAKey forger = new RSAKeyGenerator(2048).keyID(auth.keyId()).algorithm(JWSAlgorithm.RS256).generate();
        SignedJWT forgedJwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(auth.keyId())
                .type(JOSEObjectType.JWT).build(), rightClaims(route.rule()).build());
        forgedJwt.sign(new RSASSASigner(forger));
        String forged = forgedJwt.serialize();
        String right = auth.sign(rightClaims(route.rule()).build());
        String otherUser = token("u2", false);

        if (route.rule() == Rule.READ_SIDE) {
            // Public: a token, good or bad, changes nothing (as on a deployed route without the authorizer).
            for (String token : new String[] {null, expired, otherIssuer, otherAudience, forged, otherUser, right}) {
                assertThat(call(route.method(), route.path(), route.body(), token).status()).as(route.toString())
                        .isEqualTo(route.status());
            }
            return;
        }
        assertUnauthorized(call(route.method(), route.path(), route.body(), null), route, "no token");
        assertUnauthorized(call(route.method(), route.path(), route.body(), expired), route, "an expired token");
        assertUnauthorized(call(route.method(), route.path(), route.body(), otherIssuer), route, "another issuer");
        assertUnauthorized(call(route.method(), route.path(), route.body(), otherAudience), route, "another audience");
        assertUnauthorized(call(route.method(), route.path(), route.body(), forged), route, "a forged signature");
        Reply byOther = call(route.method(), route.path(), route.body(), otherUser);
        if (route.rule() == Rule.SIGNED_IN) {
            assertThat(byOther.status()).as("%s: %s", route, byOther.text()).isEqualTo(route.status());
        } else {
            assertThat(byOther.status()).as("%s with another user's token: %s", route, byOther.text()).isEqualTo(403);
            assertThat(byOther.json().path("error").path("code").asText()).isEqualTo("forbidden");
        }
        Reply byRight = call(route.method(), route.path(), route.body(), right);
        assertThat(byRight.status()).as("%s with the right token: %s", route, byRight.text()).isEqualTo(route.status());
    }

    @Test
    void theFrontServesTheJwks_whichVerifiesItsTokens() throws Exception {
        Reply reply = call("GET", JwksRoute.PATH, null, null);
        assertThat(reply.status()).isEqualTo(200);
        JWKSet set = JWKSet.parse(reply.text());
        assertThat(set.getKeys()).singleElement().satisfies(key -> assertThat(key.isPrivate()).isFalse());
        SignedJWT jwt = SignedJWT.parse(token("u1", false));
        assertThat(jwt.verify(new com.nimbusds.jose.crypto.RSASSAVerifier(set.getKeyByKeyId(jwt.getHeader().getKeyID())
                .toRSAKey()))).isTrue();
    }

    @Test
    void tokensFromTheTokenCommand_workAcrossARestartWithTheSameDataDir(@TempDir Path dataDir) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int missing = LocalRunnerCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute("token", "--data-dir", dataDir.toString(), "--user", "u7");
        assertThat(missing).as("no key yet: %s", err).isEqualTo(LocalRunnerCommand.USAGE);
        assertThat(err.toString()).contains("start tally-local --auth --data-dir");

        RunnerSettings settings = RunnerSettings.ephemeral().withAuth(true).withDataDir(dataDir);
        String token;
        try (LocalRunner first = LocalRunner.start(settings)) {
            StringWriter minted = new StringWriter();
            int status = LocalRunnerCommand.commandLine(new PrintWriter(minted, true), new PrintWriter(err, true))
                    .execute("token", "--data-dir", dataDir.toString(), "--user", "u7", "--admin", "--ttl", "2h");
            assertThat(status).as(err.toString()).isZero();
            token = minted.toString().trim();
            assertThat(callAt(first, "PUT", "/songs/s7", "{\"title\":\"Seven\"}", token).status()).isEqualTo(201);
        }
        try (LocalRunner second = LocalRunner.start(settings)) {
            assertThat(callAt(second, "GET", "/songs/s7", null, token).status()).isEqualTo(200);
            assertThat(callAt(second, "GET", "/songs/s7", null, null).status()).isEqualTo(401);
        }
    }

    /**
     * The bus takes only calls signed with the run's credentials, which the data directory keeps for its owner alone,
     * new at every start; the stream processor publishes with them (the events test above), and so does a dead-letter
     * replay given the data directory.
     */
    @Test
    void theBus_takesOnlyCallsSignedWithTheRunsCredentials_keptForTheOwnerAlone(@TempDir Path dataDir)
            throws Exception {
        RunnerSettings settings = RunnerSettings.ephemeral().withAuth(true).withDataDir(dataDir);
        software.amazon.awssdk.auth.credentials.AwsBasicCredentials firstRun;
        try (LocalRunner first = LocalRunner.start(settings)) {
            Path file = io.tally.local.auth.BusCredentials.file(dataDir);
            assertThat(java.nio.file.Files.getPosixFilePermissions(file)).containsExactlyInAnyOrder(
                    java.nio.file.attribute.PosixFilePermission.OWNER_READ,
                    java.nio.file.attribute.PosixFilePermission.OWNER_WRITE);
            firstRun = io.tally.local.auth.BusCredentials.readFrom(dataDir).orElseThrow();
            software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry entry =
                    software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry.builder()
                            .source("io.tally").detailType("PostCreated").eventBusName("tally")
                            .detail("{\"eventId\":\"forged\",\"postId\":\"p1\",\"title\":\"forged\"}").build();
            try (var anyone = bus(first, software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("local",
                    "local"))) {
                assertThatThrownBy(() -> anyone.putEvents(request -> request.entries(entry)))
                        .satisfies(LocalAuthIT::unrecognized);
            }
            try (var owner = bus(first, firstRun)) {
                assertThat(owner.putEvents(request -> request.entries(entry)).failedEntryCount()).isZero();
            }
            // A dead-letter replay signs with the credentials the data directory keeps; without them it is refused.
            try (var dynamo = software.amazon.awssdk.services.dynamodb.DynamoDbClient.builder()
                    .endpointOverride(first.dynamoDbEndpoint()).region(software.amazon.awssdk.regions.Region.US_EAST_1)
                    .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                            software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("local", "local")))
                    .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build()) {
                dynamo.putItem(r -> r.tableName(first.tableName()).item(Map.of(
                        "pk", AttributeValue.fromS("DEADLETTER#2020-04-04"), "sk", AttributeValue.fromS("01#ev-21#events"),
                        "entityType", AttributeValue.fromS("DeadLetter"), "reason", AttributeValue.fromS("refused"),
                        "shardId", AttributeValue.fromS("shardId-1"), "events", AttributeValue.fromS("[{\"id\":"
                                + "\"ev-21:PostCreated:p9\",\"source\":\"io.tally\",\"detailType\":\"PostCreated\","
                                + "\"detail\":{\"eventId\":\"ev-21:PostCreated:p9\"},\"errorCode\":\"x\"}]"))));
            }
            String letter = "2020-04-04/01#ev-21#events";
            String[] replay = {"dead-letters", "republish-events", letter, "--events-endpoint",
                    first.eventsEndpoint().toString(), "--endpoint", first.dynamoDbEndpoint().toString()};
            CommandRun unsigned = CommandRun.of(replay);
            assertThat(unsigned.status()).as(unsigned.err()).isNotZero();
            String[] signed = java.util.Arrays.copyOf(replay, replay.length + 2);
            signed[replay.length] = "--data-dir";
            signed[replay.length + 1] = dataDir.toString();
            CommandRun withCredentials = CommandRun.of(signed);
            assertThat(withCredentials.status()).as(withCredentials.err()).isZero();
            assertThat(withCredentials.out()).contains(letter + "  republished 1");
        }
        try (LocalRunner second = LocalRunner.start(settings)) {
            assertThat(io.tally.local.auth.BusCredentials.readFrom(dataDir).orElseThrow().accessKeyId())
                    .isNotEqualTo(firstRun.accessKeyId());
            try (var lastRun = bus(second, firstRun)) {
                assertThatThrownBy(() -> lastRun.putEvents(request -> request.entries(
                        software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry.builder()
                                .source("io.tally").detailType("PostCreated").detail("{}").build())))
                        .satisfies(LocalAuthIT::unrecognized);
            }
        }
    }

    /** The bus's refusal of a caller whose access key id is not the run's, as EventBridge refuses it. */
    private static void unrecognized(Throwable refusal) {
        assertThat(refusal).isInstanceOf(software.amazon.awssdk.services.eventbridge.model.EventBridgeException.class);
        assertThat(((software.amazon.awssdk.services.eventbridge.model.EventBridgeException) refusal)
                .awsErrorDetails().errorCode()).isEqualTo("UnrecognizedClientException");
    }

    private static software.amazon.awssdk.services.eventbridge.EventBridgeClient bus(LocalRunner runner,
            software.amazon.awssdk.auth.credentials.AwsBasicCredentials credentials) {
        return software.amazon.awssdk.services.eventbridge.EventBridgeClient.builder()
                .endpointOverride(runner.eventsEndpoint()).region(software.amazon.awssdk.regions.Region.US_EAST_1)
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        credentials))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create()).build();
    }

    private static Reply callAt(LocalRunner other, String method, String path, String body, String token) {
        LocalRunner saved = runner;
        runner = other;
        try {
            return call(method, path, body, token);
        } finally {
            runner = saved;
        }
    }

    /** The detail types of {@code GET /events} as this caller sees it. */
    private static java.util.Set<String> eventTypes(String token) {
        Reply reply = call("GET", "/events?limit=1000", null, token);
        ok(reply, 200);
        java.util.Set<String> types = new java.util.TreeSet<>();
        reply.json().get("items").forEach(item -> types.add(item.get("event").get("detail-type").asText()));
        return types;
    }

    @Test
    void theLocalEvents_showAnAdminEveryEvent_andAnyoneElseThePublicOnesCut() throws Exception {
        String admin = token("boss", true);
        // The fixture's events reach the bus after the stream: poll a while, then hold the admin's view to them.
        List<String> expected = List.of("PostCreated", "FavouriteCollected", "OrgCreated");
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        while (!eventTypes(admin).containsAll(expected) && Instant.now().isBefore(deadline)) {
            Thread.sleep(200);
        }
        assertThat(eventTypes(admin)).containsAll(expected);
        for (String token : java.util.Arrays.asList(null, token("u1", false))) {
            java.util.Set<String> seen = eventTypes(token);
            assertThat(seen).contains("PostCreated").doesNotContain("FavouriteCollected", "OrgCreated",
                    "EmployeeCreated", "UserStatsChanged");
            Reply reply = call("GET", "/events?limit=1000", null, token);
            reply.json().get("items").forEach(item -> {
                JsonNode event = item.get("event");
                if (event.get("detail-type").asText().equals("PostCreated")) {
                    // Cut to the public fields, as /activity's public feed shows it.
                    assertThat(event.get("detail").has("postId")).isTrue();
                }
            });
        }
    }
}
