package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.JsonNode;
import io.tally.core.http.Json;
import io.tally.testkit.LocalDynamoDb;
import java.math.BigDecimal;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Random input in every place the API reads it never gets a 5xx, and what is accepted is stored as sent: random text
 * (any UTF-16 unit, lone surrogates and control characters included), random numbers (any digits, any exponent) and
 * random JSON values in every body field of every route with a body (as the OpenAPI document lists them), random bytes
 * as a base64 body, random bytes percent-encoded into paths and query strings.
 */
class StrictInputPropertyIT {
    private static final int TRIES = 500;
    /** The existing resource each path parameter names, so that requests get past the 404s to the writes. */
    private static final Map<String, String> IDS = Map.ofEntries(Map.entry("userId", "u1"), Map.entry("postId", "p1"),
            Map.entry("itemId", "i1"), Map.entry("orgId", "o1"), Map.entry("teamId", "t1"),
            Map.entry("employeeId", "e1"), Map.entry("songId", "s1"), Map.entry("tagId", "tag1"),
            Map.entry("favouriteId", "f1"), Map.entry("commentId", "c1"), Map.entry("downloadId", "d1"),
            Map.entry("selector", "back-catalogue"), Map.entry("month", "2026-01"), Map.entry("file", "app.js"));
    /** Fields whose accepted value the answer shows in another form (a timestamp with milliseconds). */
    private static final Set<String> REWRITTEN = Set.of("at");

    private static WriterHandler handler;
    /** Routes with a body: method, path template, fields. */
    private static List<Route> routes;
    /** Every route: method and path template. */
    private static List<Route> allRoutes;

    record Route(String method, String template, List<String> fields) {
        String path() {
            String path = template;
            for (Map.Entry<String, String> id : IDS.entrySet()) {
                path = path.replace("{" + id.getKey() + "}", id.getValue());
            }
            return path;
        }
    }

    @BeforeContainer
    static void seed() {
        String table = LocalDynamoDb.createTable("property");
        WriterApi api = new WriterApi(LocalDynamoDb.client(), table, Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET);
        handler = new WriterHandler(api);
        routes = new ArrayList<>();
        allRoutes = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = api.openApi().get("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (Iterator<Map.Entry<String, JsonNode>> operations = path.getValue().fields(); operations.hasNext(); ) {
                Map.Entry<String, JsonNode> operation = operations.next();
                List<String> fields = new ArrayList<>();
                operation.getValue().at("/requestBody/content/application~1json/schema/properties").fieldNames()
                        .forEachRemaining(fields::add);
                Route route = new Route(operation.getKey().toUpperCase(java.util.Locale.ROOT), path.getKey(), fields);
                allRoutes.add(route);
                if (!fields.isEmpty()) {
                    routes.add(route);
                }
            }
        }
        assertThat(routes).extracting(Route::template)
                .contains("/users", "/items/{itemId}", "/users/{userId}/items/{itemId}", "/songs/{songId}/downloads");
        for (String[] write : new String[][] {
                {"POST", "/users", "{\"userId\":\"u1\",\"name\":\"U\",\"email\":\"u@example.com\"}"},
                {"POST", "/users/u1/posts", "{\"postId\":\"p1\",\"title\":\"T\",\"body\":\"B\"}"},
                {"PUT", "/items/i1", "{\"title\":\"I\",\"score\":5,\"selector\":\"back-catalogue\"}"},
                {"POST", "/orgs", "{\"orgId\":\"o1\",\"name\":\"O\"}"},
                {"POST", "/orgs/o1/teams", "{\"teamId\":\"t1\",\"name\":\"T\"}"},
                {"POST", "/orgs/o1/employees", "{\"employeeId\":\"e1\",\"name\":\"E\",\"email\":\"e@example.com\"}"},
                {"PUT", "/songs/s1", "{\"title\":\"S\"}"},
                {"POST", "/users/u1/tags", "{\"tagId\":\"tag1\",\"name\":\"Tag\"}"},
                {"POST", "/users/u1/favourites", "{\"favouriteId\":\"f1\",\"type\":\"link\",\"title\":\"F\"}"}}) {
            TestApi.Response response = send(TestApi.event(write[0], write[1], write[2], Map.of()));
            assertThat(response.status()).as(write[1] + ": " + response.body()).isBetween(200, 299);
        }
    }

    private static TestApi.Response send(APIGatewayV2HTTPEvent event) {
        return TestApi.Response.of(handler.handleRequest(event, null));
    }

    // ---- bodies --------------------------------------------------------------------------------------------------

    /**
     * A valid body for every route with one, so that a random value in one field is the only thing wrong (or nothing
     * is, and the write goes through). Ids in create bodies are left out: the server generates them.
     */
    private static final Map<String, String> VALID = Map.ofEntries(
            Map.entry("POST /users", "{\"name\":\"N\",\"email\":\"n@example.com\"}"),
            Map.entry("PATCH /users/{userId}", "{\"name\":\"N\"}"),
            Map.entry("POST /users/{userId}/posts", "{\"title\":\"T\",\"body\":\"B\"}"),
            Map.entry("PATCH /users/{userId}/posts/{postId}", "{\"title\":\"T\"}"),
            Map.entry("POST /users/{userId}/posts/{postId}/comments", "{\"authorId\":\"u1\",\"text\":\"C\"}"),
            Map.entry("PUT /items/{itemId}", "{\"title\":\"I\",\"score\":5,\"selector\":\"back-catalogue\"}"),
            Map.entry("PUT /users/{userId}/items/{itemId}", "{\"state\":\"assigned\"}"),
            Map.entry("POST /orgs", "{\"name\":\"O\"}"),
            Map.entry("PATCH /orgs/{orgId}", "{\"name\":\"O\"}"),
            Map.entry("POST /orgs/{orgId}/teams", "{\"name\":\"T\"}"),
            Map.entry("POST /orgs/{orgId}/employees", "{\"name\":\"E\",\"email\":\"e@example.com\"}"),
            Map.entry("PUT /orgs/{orgId}/teams/{teamId}/members/{employeeId}", "{\"role\":\"R\"}"),
            Map.entry("PUT /songs/{songId}", "{\"title\":\"S\"}"),
            Map.entry("POST /songs/{songId}/downloads", "{}"),
            Map.entry("POST /users/{userId}/tags", "{\"name\":\"N\"}"),
            Map.entry("PATCH /users/{userId}/tags/{tagId}", "{\"name\":\"N\"}"),
            Map.entry("POST /users/{userId}/favourites", "{\"type\":\"link\",\"title\":\"F\"}"));

    /** A request to a route with a body: its valid body with one field (now and then an unknown one) set at random. */
    record BodyCase(Route route, String field, String value) {
        String json() {
            Map<String, String> fields = new LinkedHashMap<>();
            try {
                Json.MAPPER.readTree(VALID.get(route.method() + " " + route.template())).fields()
                        .forEachRemaining(f -> fields.put(f.getKey(), f.getValue().toString()));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
            fields.put(field, value);
            StringBuilder json = new StringBuilder("{");
            fields.forEach((name, v) -> json.append(json.length() > 1 ? "," : "").append(quote(name)).append(':')
                    .append(v));
            return json.append('}').toString();
        }

        @Override
        public String toString() {
            return route.method() + " " + route.path() + " " + json();
        }
    }

    @Provide
    Arbitrary<BodyCase> bodies() {
        return Arbitraries.of(routes).flatMap(route -> {
            List<String> names = new ArrayList<>(route.fields());
            Arbitrary<String> field = Arbitraries.frequencyOf(
                    net.jqwik.api.Tuple.of(20, Arbitraries.of(names)),
                    net.jqwik.api.Tuple.of(1, text()));
            return Combinators.combine(field, jsonValue()).as((name, value) -> new BodyCase(route, name, value));
        });
    }

    @Property(tries = 1)
    void everyRouteWithABody_hasAValidBodyHere() {
        assertThat(routes).allSatisfy(route -> assertThat(VALID).containsKey(route.method() + " " + route.template()));
    }

    @Property(tries = TRIES)
    void randomValuesInEveryBodyField_neverA5xx_andWhatIsAcceptedIsStoredAsSent(@ForAll("bodies") BodyCase request)
            throws Exception {
        TestApi.Response response = send(TestApi.event(request.route().method(), request.route().path(), request.json(),
                Map.of()));

        assertThat(response.status()).as("%s -> %s", request, response.body()).isLessThan(500);
        net.jqwik.api.statistics.Statistics.label("answer").collect(response.status() < 300 ? "2xx"
                : response.errorCode());
        if (response.status() >= 400) {
            assertThat(response.errorCode()).as("%s -> %s", request, response.body()).isNotNull();
            return;
        }
        JsonNode sent = Json.MAPPER.readTree(request.json().isEmpty() ? "{}" : request.json());
        sent.fieldNames().forEachRemaining(field -> {
            JsonNode value = sent.get(field);
            JsonNode answered = response.body().get(field);
            if (answered == null || REWRITTEN.contains(field)) {
                return;
            }
            if (value.isTextual()) {
                assertThat(answered.asText()).as("%s: %s stored altered", request, field).isEqualTo(value.textValue());
            } else if (value.isNumber() && answered.isNumber()) {
                assertThat(answered.decimalValue()).as("%s: %s stored altered", request, field)
                        .isEqualByComparingTo(value.decimalValue());
            }
        });
    }

    /** JSON text of a random value: mostly strings and numbers, the kinds a field holds, now and then anything else. */
    static Arbitrary<String> jsonValue() {
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, text().map(StrictInputPropertyIT::quote)),
                net.jqwik.api.Tuple.of(4, number()),
                net.jqwik.api.Tuple.of(1, Arbitraries.of("true", "false", "null", "[]", "{}", "[\"a\"]", "{\"a\":1}",
                        "[[[[]]]]", "\"\"", "\" \"")));
    }

    /**
     * Any UTF-16 units (lone surrogates and control characters included), or text of any script, or a plain word, or
     * an edge case.
     */
    static Arbitrary<String> text() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMaxLength(40),
                // Valid Unicode of the basic plane; pairs come with the edge cases below.
                Arbitraries.strings().withCharRange(' ', '\uD7FF').withCharRange('\uE000', '\uFFFF')
                        .ofMinLength(1).ofMaxLength(40),
                Arbitraries.strings().alpha().numeric().withChars(' ', '-', ':', '@', '.').ofMinLength(1).ofMaxLength(30),
                Arbitraries.of("in-progress", "completed", "assigned", "back-catalogue", "global-cycle:5", "link",
                        "image", "2026-01-01T00:00:00Z", "a@example.com", "u1", "\u0000", "\uFFFD", "a\nb", "\t",
                        "\uD800", "\uDFFF", "\uD83D\uDE00", "\uD83D\uDC69\u200D\uD83D\uDCBB", "\uFFFF", "x".repeat(10_001), "\u00e9".repeat(201)));
    }

    /** A number as JSON writes it: any sign, up to 60 digits, a fraction or not, any exponent a long can say. */
    static Arbitrary<String> number() {
        Arbitrary<String> digits = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(60)
                .map(d -> d.length() > 1 ? d.replaceFirst("^0+(?=.)", "") : d);
        Arbitrary<String> fraction = Arbitraries.strings().numeric().ofMinLength(1).ofMaxLength(45)
                .map(f -> "." + f).injectNull(0.5).map(f -> f == null ? "" : f);
        Arbitrary<String> exponent = Arbitraries.oneOf(Arbitraries.longs().between(-3_000_000_000L, 3_000_000_000L),
                        Arbitraries.longs().between(-140, 140))
                .map(e -> "e" + e).injectNull(0.4).map(e -> e == null ? "" : e);
        return Combinators.combine(Arbitraries.of("", "-"), digits, fraction, exponent)
                .as((sign, d, f, e) -> sign + d + f + e);
    }

    /** The JSON string of {@code text}: every character escaped that JSON requires, and every surrogate too. */
    static String quote(String text) {
        StringBuilder json = new StringBuilder("\"");
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                json.append('\\').append(c);
            } else if (c < 0x20 || Character.isSurrogate(c)) {
                json.append(String.format("\\u%04x", (int) c));
            } else {
                json.append(c);
            }
        }
        return json.append('"').toString();
    }

    // ---- bytes ---------------------------------------------------------------------------------------------------

    @Property(tries = TRIES)
    void randomBytesInATextField_base64Encoded_neverA5xx_andAcceptedOnlyAsTheirUtf8(
            @ForAll("bytes") byte[] middle, @ForAll("textFieldRoutes") Route route) {
        String field = route.fields().contains("title") ? "title" : "name";
        byte[] head = ("{\"" + field + "\":\"").getBytes(StandardCharsets.UTF_8);
        byte[] tail = "\"}".getBytes(StandardCharsets.UTF_8);
        byte[] body = new byte[head.length + middle.length + tail.length];
        System.arraycopy(head, 0, body, 0, head.length);
        System.arraycopy(middle, 0, body, head.length, middle.length);
        System.arraycopy(tail, 0, body, head.length + middle.length, tail.length);
        APIGatewayV2HTTPEvent event = TestApi.event(route.method(), route.path(), null, Map.of());
        event.setBody(Base64.getEncoder().encodeToString(body));
        event.setIsBase64Encoded(true);

        TestApi.Response response = send(event);

        String context = route.method() + " " + route.path() + " " + java.util.HexFormat.of().formatHex(middle) + " -> "
                + response.body();
        assertThat(response.status()).as(context).isLessThan(500);
        if (response.status() < 300 && response.body().has(field)) {
            String utf8;
            try {
                utf8 = StandardCharsets.UTF_8.newDecoder()
                        .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                        .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                        .decode(java.nio.ByteBuffer.wrap(middle)).toString();
            } catch (CharacterCodingException e) {
                throw new AssertionError("accepted bytes that are not UTF-8: " + context, e);
            }
            assertThat(response.body().get(field).asText()).as(context).isEqualTo(utf8);
        }
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        return Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(12),
                // Mostly letters, now and then a byte of a multi-byte sequence: near-UTF-8, where decoders go wrong.
                Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(6, Arbitraries.bytes().between((byte) 'a', (byte) 'z')),
                                net.jqwik.api.Tuple.of(1, Arbitraries.bytes().between((byte) 0x80, (byte) 0xFF)))
                        .array(byte[].class).ofMinSize(1).ofMaxSize(12));
    }

    @Provide
    Arbitrary<Route> textFieldRoutes() {
        return Arbitraries.of(routes.stream()
                .filter(r -> r.fields().contains("title") || r.fields().contains("name")).toList());
    }

    // ---- paths and query strings ---------------------------------------------------------------------------------

    @Property(tries = TRIES)
    void randomBytesPercentEncodedInThePathAndQuery_neverA5xx(@ForAll("anyRoute") Route route,
            @ForAll("bytes") byte[] segment, @ForAll("bytes") byte[] query, @ForAll boolean inPath) {
        String encoded = percentEncode(segment);
        String path = route.path();
        if (inPath && path.lastIndexOf('/') > 0) {
            path = path.substring(0, path.lastIndexOf('/') + 1) + encoded;
        }
        APIGatewayV2HTTPEvent event = TestApi.event(route.method(), path + "?limit=5&x=" + percentEncode(query), null,
                Map.of());

        // Not parsed: the dashboard's routes answer HTML.
        com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse response = handler.handleRequest(event, null);

        assertThat(response.getStatusCode()).as("%s %s -> %s", route.method(), event.getRawPath() + "?"
                + event.getRawQueryString(), response.getBody()).isLessThan(500);
    }

    @Provide
    Arbitrary<Route> anyRoute() {
        return Arbitraries.of(allRoutes);
    }

    private static String percentEncode(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%%%02X", b & 0xFF));
        }
        return out.toString();
    }
}
