package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import io.tally.core.http.Json;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Input is decoded strictly (DOMAIN.md, access control clarifications): bodies (text and base64), every text field of
 * every route, every number field, paths, query strings and the header values the API reads. What does not decode, or
 * breaks a field's text or number rule, is a 400, never a 500, and nothing is stored.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StrictInputIT {
    private final TestApi api = TestApi.onFreshTable();
    private int next;

    /** One of each resource the routes below refer to. */
    @BeforeAll
    void seed() {
        ok("POST", "/users", "{\"userId\":\"u1\",\"name\":\"U\",\"email\":\"u@example.com\"}");
        ok("POST", "/users/u1/posts", "{\"postId\":\"p1\",\"title\":\"T\",\"body\":\"B\"}");
        ok("PUT", "/items/i1", "{\"title\":\"I\",\"score\":5,\"selector\":\"back-catalogue\"}");
        ok("POST", "/orgs", "{\"orgId\":\"o1\",\"name\":\"O\"}");
        ok("POST", "/orgs/o1/teams", "{\"teamId\":\"t1\",\"name\":\"T\"}");
        ok("POST", "/orgs/o1/employees", "{\"employeeId\":\"e1\",\"name\":\"E\",\"email\":\"e@example.com\"}");
        ok("PUT", "/songs/s1", "{\"title\":\"S\"}");
        ok("POST", "/users/u1/tags", "{\"tagId\":\"tag1\",\"name\":\"Tag\"}");
    }

    private TestApi.Response ok(String method, String path, String body) {
        TestApi.Response response = api.call(method, path, body);
        assertThat(response.status()).as("%s %s: %s", method, path, response.body()).isBetween(200, 299);
        return response;
    }

    /**
     * A text field of a route: the request with a valid body into which the field's value is put, and whether the field
     * may span lines. Creates get a fresh id each time (set by {@link #request}), so that a 2xx never collides.
     */
    record TextField(String method, String path, String body, String field, boolean multiline) {
        @Override
        public String toString() {
            return method + " " + path + " " + field;
        }
    }

    static Stream<TextField> textFields() {
        return Stream.of(
                new TextField("POST", "/users", "{\"name\":\"N\",\"email\":\"n@example.com\"}", "name", false),
                new TextField("POST", "/users", "{\"name\":\"N\",\"email\":\"n@example.com\"}", "email", false),
                new TextField("PATCH", "/users/u1", "{}", "name", false),
                new TextField("POST", "/users/u1/posts", "{\"title\":\"T\",\"body\":\"B\"}", "title", false),
                new TextField("POST", "/users/u1/posts", "{\"title\":\"T\",\"body\":\"B\"}", "body", true),
                new TextField("PATCH", "/users/u1/posts/p1", "{}", "title", false),
                new TextField("PATCH", "/users/u1/posts/p1", "{}", "body", true),
                new TextField("POST", "/users/u1/posts/p1/comments", "{\"authorId\":\"u1\",\"text\":\"C\"}", "text", true),
                new TextField("PUT", "/items/i1", "{\"score\":5,\"selector\":\"back-catalogue\"}", "title", false),
                new TextField("PUT", "/items/i1", "{\"score\":5,\"selector\":\"back-catalogue\"}", "selector", false),
                new TextField("PUT", "/users/u1/items/i1", "{}", "state", false),
                new TextField("POST", "/orgs", "{\"name\":\"O\"}", "name", false),
                new TextField("POST", "/orgs", "{\"name\":\"O\"}", "type", false),
                new TextField("PATCH", "/orgs/o1", "{}", "name", false),
                new TextField("POST", "/orgs/o1/teams", "{\"name\":\"T\"}", "name", false),
                new TextField("POST", "/orgs/o1/teams", "{\"name\":\"T\"}", "details", true),
                new TextField("POST", "/orgs/o1/employees", "{\"name\":\"E\",\"email\":\"e@example.com\"}", "name", false),
                new TextField("POST", "/orgs/o1/employees", "{\"name\":\"E\",\"email\":\"e@example.com\"}", "details", true),
                new TextField("PUT", "/orgs/o1/teams/t1/members/e1", "{}", "role", false),
                new TextField("PUT", "/songs/s1", "{}", "title", false),
                new TextField("PUT", "/songs/s1", "{\"title\":\"S\"}", "artist", false),
                new TextField("POST", "/songs/s1/downloads", "{}", "at", false),
                new TextField("POST", "/users/u1/tags", "{}", "name", false),
                new TextField("PATCH", "/users/u1/tags/tag1", "{}", "name", false),
                new TextField("POST", "/users/u1/favourites", "{\"type\":\"link\"}", "title", false),
                new TextField("POST", "/users/u1/favourites", "{\"type\":\"link\",\"title\":\"F\"}", "contentUrl", false),
                new TextField("POST", "/users/u1/favourites", "{\"type\":\"link\",\"title\":\"F\"}", "thumbnailUrl", false),
                new TextField("POST", "/users/u1/favourites", "{\"type\":\"link\",\"title\":\"F\"}", "creatorId", false));
    }

    /** The field's body with {@code jsonValue} (JSON text, escapes included) as the field's value. */
    private String request(TextField field, String jsonValue) {
        String body = field.body();
        // Without the field's valid value in the base body (a key given twice is a bad_request of its own).
        String fields = body.substring(1, body.length() - 1)
                .replaceAll("\"" + field.field() + "\":\"[^\"]*\",?", "").replaceAll(",$", "");
        return "{" + (fields.isEmpty() ? "" : fields + ",") + "\"" + field.field() + "\":" + jsonValue + "}";
    }

    private TestApi.Response send(TextField field, String jsonValue) {
        String path = field.path();
        if (field.method().equals("POST") && path.equals("/users")) {
            // A fresh user each time, so that a success never makes the next case a conflict.
            String body = request(field, jsonValue);
            return api.call("POST", path, "{\"userId\":\"n" + (next++) + "\"," + body.substring(1));
        }
        return api.call(field.method(), path, request(field, jsonValue));
    }

    @ParameterizedTest
    @MethodSource("textFields")
    void everyTextField_refusesNulControlCharactersAndTheReplacementCharacter(TextField field) {
        for (String value : List.of("\"a\\u0000b\"", "\"a\\u0001b\"", "\"a\\u001bb\"", "\"a\\u007fb\"", "\"a\\u0085b\"",
                "\"a\\u000bb\"", "\"a\\ufffdb\"", "\"a\uFFFDb\"")) {
            TestApi.Response response = send(field, value);
            assertThat(response.status()).as("%s = %s: %s", field, value, response.body()).isEqualTo(400);
            response.assertClientError("validation_failed", field.field());
        }
    }

    @ParameterizedTest
    @MethodSource("textFields")
    void everyTextField_refusesALoneSurrogate_escapedOrNot(TextField field) {
        for (String value : List.of("\"a\\ud800\"", "\"\\udc00a\"", "\"\\ude00\\ud83d\"")) {
            TestApi.Response response = send(field, value);
            assertThat(response.status()).as("%s = %s: %s", field, value, response.body()).isEqualTo(400);
            response.assertClientError("bad_request", field.field());
        }
        TestApi.Response raw = send(field, "\"a\uD800\"");
        assertThat(raw.status()).as("%s raw lone surrogate: %s", field, raw.body()).isEqualTo(400);
        raw.assertClientError("bad_request", null);
    }

    @ParameterizedTest
    @MethodSource("textFields")
    void lineBreaks_onlyInTextThatMaySpanLines(TextField field) {
        for (String value : List.of("\"a\\nb\"", "\"a\\r\\nb\"", "\"a\\tb\"")) {
            TestApi.Response response = send(field, value);
            if (field.multiline()) {
                assertThat(response.status()).as("%s = %s: %s", field, value, response.body()).isBetween(200, 299);
                assertThat(response.text(field.field())).isEqualTo(Json.parseObject("{\"v\":" + value + "}")
                        .get("v").textValue());
            } else {
                assertThat(response.status()).as("%s = %s: %s", field, value, response.body()).isEqualTo(400);
                response.assertClientError("validation_failed", field.field());
            }
        }
    }

    @Test
    void textOfEveryScript_andEmoji_isStoredExactly() {
        String name = "Zo\u00eb \u674e \u0623\u062d\u0645\u062f \uD83D\uDE00 \uD83D\uDC69\u200D\uD83D\uDCBB";
        TestApi.Response created = api.call("POST", "/users",
                "{\"userId\":\"script\",\"name\":\"" + name + "\",\"email\":\"s@example.com\"}");
        assertThat(created.status()).as(created.body().toString()).isEqualTo(201);
        assertThat(api.call("GET", "/users/script").text("name")).isEqualTo(name);
    }

    // ---- bodies that are not UTF-8 -------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {
            "ff",         // never in UTF-8
            "80",         // a continuation byte without its lead
            "c0ae",       // overlong '.'
            "e080af",     // overlong '/'
            "eda080",     // an encoded surrogate (CESU-8)
            "e282",       // a truncated euro sign
            "f4908080",   // above U+10FFFF
            "fe"})
    void base64BodyThatIsNotUtf8_isBadRequest_andNothingIsStored(String hex) {
        String id = "bytes-" + hex;
        byte[] body = concat("{\"userId\":\"" + id + "\",\"name\":\"A", HexFormat.of().parseHex(hex),
                "\",\"email\":\"a@example.com\"}");

        TestApi.Response response = api.callBase64("POST", "/users", body);

        assertThat(response.status()).as(response.body().toString()).isEqualTo(400);
        response.assertClientError("bad_request", null);
        assertThat(response.body().at("/error/message").asText()).contains("UTF-8");
        assertThat(api.call("GET", "/users/" + id).status()).isEqualTo(404);
    }

    @Test
    void base64BodyOfUtf8_isDecodedAndStoredExactly() {
        String name = "Zo\u00eb \u20ac \uD83D\uDE00";
        TestApi.Response response = api.callBase64("POST", "/users",
                ("{\"userId\":\"b64\",\"name\":\"" + name + "\",\"email\":\"b@example.com\"}")
                        .getBytes(StandardCharsets.UTF_8));

        assertThat(response.status()).as(response.body().toString()).isEqualTo(201);
        assertThat(api.call("GET", "/users/b64").text("name")).isEqualTo(name);
    }

    @Test
    void base64BodyThatIsNotBase64_isBadRequest() {
        APIGatewayV2HTTPEvent event = TestApi.event("POST", "/users", "not base64!", Map.of());
        event.setIsBase64Encoded(true);

        api.send(event).assertClientError("bad_request", null);
    }

    @Test
    void base64BodyAboveTheLimit_is413BeforeDecoding() {
        byte[] body = new byte[WriterApi.MAX_BODY_BYTES + 1];
        java.util.Arrays.fill(body, (byte) 0xFF);

        TestApi.Response response = api.callBase64("POST", "/users", body);

        assertThat(response.status()).isEqualTo(413);
        response.assertClientError("payload_too_large", null);
    }

    @Test
    void nulByte_inABase64Body_isBadRequest() {
        byte[] body = concat("{\"userId\":\"nulbyte\",\"name\":\"A", new byte[] {0}, "\",\"email\":\"a@example.com\"}");

        api.callBase64("POST", "/users", body).assertClientError("bad_request", null);
        assertThat(api.call("GET", "/users/nulbyte").status()).isEqualTo(404);
    }

    @Test
    void textBodyWithALoneSurrogate_onAnyRoute_isBadRequest() {
        // API Gateway never sends one (its events are UTF-8); a hand-made event can.
        api.call("GET", "/users/u1", "\uDC00").assertClientError("bad_request", null);
    }

    // ---- numbers -------------------------------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"1e-131", "1e-400", "1e400", "1e2147483648", "1e-2147483649", "0.5e99999999999",
            "0.1234567890123456", "0.12345678901234567890123456789012345678901", "1.0000000000000001", "-1e-131",
            "\"0.5\"", "true"})
    void progress_thatIsNotANumberTheFieldAllows_isValidationFailed_neverA500(String progress) {
        TestApi.Response response = api.call("PUT", "/users/u1/items/i1",
                "{\"state\":\"assigned\",\"progress\":" + progress + "}");

        assertThat(response.status()).as(response.body().toString()).isEqualTo(400);
        response.assertClientError("validation_failed", "progress");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.123456789012345", "0.000000000000001", "0", "1", "0.5000000000000000000000000",
            "1e-15", "8.7E-1"})
    void progress_thatTheFieldAllows_isStoredAsTheSameNumber(String progress) {
        TestApi.Response response = api.call("PUT", "/users/u1/items/i1",
                "{\"state\":\"assigned\",\"progress\":" + progress + "}");

        assertThat(response.status()).as(response.body().toString()).isBetween(200, 201);
        assertThat(response.body().get("progress").decimalValue()).isEqualByComparingTo(new BigDecimal(progress));
        TestApi.Response listed = api.call("GET", "/users/u1/items?state=assigned");
        assertThat(listed.body().at("/items/0/progress").decimalValue()).isEqualByComparingTo(new BigDecimal(progress));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e-131", "0.5", "1e400", "1e2147483648", "-1e-2147483649", "1000000001", "-1",
            "1e9999999999", "\"5\"", "null"})
    void score_thatIsNotAWholeNumberInItsRange_isValidationFailed_neverA500(String score) {
        TestApi.Response response = api.call("PUT", "/items/i2",
                "{\"title\":\"I\",\"score\":" + score + ",\"selector\":\"back-catalogue\"}");

        assertThat(response.status()).as(response.body().toString()).isEqualTo(400);
        response.assertClientError("validation_failed", "score");
        assertThat(api.call("GET", "/items/i2").status()).isEqualTo(404);
    }

    @Test
    void score_inExponentForm_isTheWholeNumber() {
        TestApi.Response response = api.call("PUT", "/items/i3", "{\"title\":\"I\",\"score\":1.5E+2,\"selector\":\"back-catalogue\"}");

        assertThat(response.status()).as(response.body().toString()).isEqualTo(201);
        assertThat(response.body().get("score").asLong()).isEqualTo(150);
    }

    // ---- paths, query strings, headers ---------------------------------------------------------------------------

    @ParameterizedTest
    @ValueSource(strings = {"/users/%FF", "/users/%C0%AE", "/users/%ED%A0%80", "/users/%E2%82", "/users/%00",
            "/users/a%0Ab", "/users/%EF%BF%BD", "/users/%zz", "/users/%", "/stats/users/%FF", "/nowhere/%FF",
            "/users/u1/posts/%C0%AF/comments"})
    void pathThatDoesNotDecodeStrictly_isBadRequest(String path) {
        TestApi.Response response = api.call("GET", path);

        assertThat(response.status()).as(response.body().toString()).isEqualTo(400);
        response.assertClientError("bad_request", null);
    }

    @Test
    void pathOfValidUtf8ThatIsNoIdentifier_isStillValidationFailed() {
        api.call("GET", "/users/caf%C3%A9").assertClientError("validation_failed", "userId");
    }

    @ParameterizedTest
    @ValueSource(strings = {"limit=5&x=%FF", "x=%C0%AE", "x=%ED%A0%80", "status=created%00", "x=a%0Ab", "x=%zz",
            "x=%", "%FF=1", "x=%EF%BF%BD", "cursor=%E2%82"})
    void queryStringThatDoesNotDecodeStrictly_isBadRequest_evenForAParameterTheRouteIgnores(String query) {
        TestApi.Response response = api.call("GET", "/posts?status=created&" + query);

        assertThat(response.status()).as(response.body().toString()).isEqualTo(400);
        response.assertClientError("bad_request", null);
    }

    @Test
    void queryParameterNamedInTheError_whenItsNameDecodes() {
        api.call("GET", "/users/u1/posts?limit=%FF").assertClientError("bad_request", "limit");
    }

    @Test
    void decodedQueryParameterWithAControlCharacter_isBadRequest_withoutARawQueryString() {
        // A hand-made event (or a gateway that decodes leniently) with the parameters only.
        Map<String, String> query = new LinkedHashMap<>();
        query.put("status", "created");
        query.put("q", "a\u0000b");
        APIGatewayV2HTTPEvent event = TestApi.event("GET", "/posts", null, Map.of());
        event.setRawQueryString(null);
        event.setQueryStringParameters(query);

        api.send(event).assertClientError("bad_request", "q");
    }

    @Test
    void queryOfValidUtf8_isServed() {
        TestApi.Response response = api.call("GET", "/users/u1/favourites/search?q=caf%C3%A9+%E2%82%AC");

        assertThat(response.status()).as(response.body().toString()).isEqualTo(200);
    }

    @Test
    void ifMatchWithAControlCharacter_isBadRequest_andChangesNothing() {
        TestApi.Response response = api.call("PATCH", "/users/u1", "{\"name\":\"V\"}", Map.of("If-Match", "\"1\"\u0000"));

        assertThat(response.status()).as(response.body().toString()).isEqualTo(400);
        response.assertClientError("bad_request", "If-Match");
        assertThat(api.call("GET", "/users/u1").text("name")).isEqualTo("U");
    }

    @Test
    void ifMatchOfPlainText_thatIsNoVersion_isStill412() {
        api.call("PATCH", "/users/u1", "{\"name\":\"V\"}", Map.of("If-Match", "\"caf\u00e9\""))
                .assertClientError("precondition_failed", "If-Match");
    }

    private static byte[] concat(String head, byte[] middle, String tail) {
        byte[] a = head.getBytes(StandardCharsets.UTF_8);
        byte[] c = tail.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[a.length + middle.length + c.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(middle, 0, all, a.length, middle.length);
        System.arraycopy(c, 0, all, a.length + middle.length, c.length);
        return all;
    }
}
