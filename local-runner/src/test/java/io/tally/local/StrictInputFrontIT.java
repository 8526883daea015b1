package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.local.http.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Strict decoding over real HTTP against the whole local runner: what a client sends as bytes (a body that is not
 * UTF-8, with or without a text content type; a path or query string with bytes that are not UTF-8, percent-encoded
 * or raw; control characters) gets the answer API Gateway and the handler give together on AWS: a 400 in the
 * envelope, nothing stored.
 */
class StrictInputFrontIT {
    private static LocalRunner runner;

    @BeforeAll
    static void start() throws IOException {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        Api api = new Api(runner.baseUri());
        api.ok("POST", "/users", "{\"userId\":\"strict\",\"name\":\"S\",\"email\":\"s@example.com\"}");
        api.ok("PUT", "/items/strict-item", "{\"title\":\"I\",\"score\":5,\"selector\":\"back-catalogue\"}");
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    private static RawHttp.Answer send(String method, String target, String contentType, byte[] body) throws IOException {
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        String head = method + " " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n")
                + (body == null ? "" : "Content-Length: " + body.length + "\r\n") + "\r\n";
        request.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            request.writeBytes(body);
        }
        return RawHttp.send(runner.port(), request.toByteArray());
    }

    private static RawHttp.Answer get(String target) throws IOException {
        return send("GET", target, null, null);
    }

    private static byte[] user(String id, byte[] nameBytes) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(("{\"userId\":\"" + id + "\",\"name\":\"A").getBytes(StandardCharsets.UTF_8));
        body.writeBytes(nameBytes);
        body.writeBytes("\",\"email\":\"a@example.com\"}".getBytes(StandardCharsets.UTF_8));
        return body.toByteArray();
    }

    private static void assertBadRequest(RawHttp.Answer answer, String code) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.envelopeCode()).isEqualTo(code);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ff", "80", "c0ae", "e080af", "eda080", "e282", "f4908080"})
    void bodyThatIsNotUtf8_isBadRequest_whateverItsContentType_andNothingIsStored(String hex) throws IOException {
        byte[] bytes = HexFormat.of().parseHex(hex);
        for (String type : new String[] {"application/json", "application/json; charset=utf-8", "text/plain",
                "application/octet-stream", null}) {
            String id = "b" + hex + (type == null ? "none" : Integer.toHexString(type.hashCode()));
            assertBadRequest(send("POST", "/users", type, user(id, bytes)), "bad_request");
            assertThat(get("/users/" + id).status()).isEqualTo(404);
        }
    }

    @Test
    void bodyOfUtf8_isStoredExactly_evenAsBinaryMedia() throws IOException {
        String name = "Zo\u00eb \u20ac \uD83D\uDE00";
        RawHttp.Answer created = send("POST", "/users", "application/octet-stream",
                ("{\"userId\":\"utf8\",\"name\":\"" + name + "\",\"email\":\"u@example.com\"}")
                        .getBytes(StandardCharsets.UTF_8));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(get("/users/utf8").json().get("name").asText()).isEqualTo(name);
    }

    @Test
    void nulByteInABody_isBadRequest() throws IOException {
        assertBadRequest(send("POST", "/users", "application/json", user("nulbyte", new byte[] {0})), "bad_request");
        assertThat(get("/users/nulbyte").status()).isEqualTo(404);
    }

    @Test
    void escapesForALoneSurrogateOrANul_areRefused_andNothingIsStored() throws IOException {
        assertBadRequest(send("POST", "/users", "application/json", user("lone", "\\ud800".getBytes(StandardCharsets.US_ASCII))),
                "bad_request");
        assertBadRequest(send("POST", "/users", "application/json", user("nul", "\\u0000".getBytes(StandardCharsets.US_ASCII))),
                "validation_failed");
        assertThat(get("/users/lone").status()).isEqualTo(404);
        assertThat(get("/users/nul").status()).isEqualTo(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1e-131", "1e-400", "1e2147483648", "0.1234567890123456789"})
    void progressTheTableCannotHoldExactly_isValidationFailed_notA500(String progress) throws IOException {
        RawHttp.Answer answer = send("PUT", "/users/strict/items/strict-item", "application/json",
                ("{\"state\":\"assigned\",\"progress\":" + progress + "}").getBytes(StandardCharsets.US_ASCII));

        assertBadRequest(answer, "validation_failed");
        assertThat(answer.json().at("/error/field").asText()).isEqualTo("progress");
    }

    @ParameterizedTest
    @ValueSource(strings = {"/users/%FF", "/users/%C0%AE", "/users/%ED%A0%80", "/users/%E2%82", "/users/%00",
            "/users/%EF%BF%BD", "/nowhere/%FF", "/users/strict/items?state=assigned&x=%FF",
            "/users/strict/items?state=assigned%00", "/users/strict/items?state=%C0%AE"})
    void pathOrQueryThatIsNotUtf8_isBadRequest(String target) throws IOException {
        assertBadRequest(get(target), "bad_request");
    }

    @Test
    void rawBytesThatAreNotUtf8_inThePath_areBadRequest() throws IOException {
        byte[] request = concat("GET /users/", new byte[] {(byte) 0xC0, (byte) 0xAE},
                " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

        RawHttp.Answer answer = RawHttp.send(runner.port(), request);

        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.envelopeCode()).isIn("bad_request", "validation_failed");
    }

    @Test
    void ifMatchWithAControlCharacter_isRefused_andChangesNothing() throws IOException {
        byte[] request = concat("PATCH /users/strict HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: 12\r\nIf-Match: \"1", new byte[] {0x01},
                "\"\r\n\r\n{\"name\":\"T\"}");

        RawHttp.Answer answer = RawHttp.send(runner.port(), request);

        assertBadRequest(answer, "bad_request");
        assertThat(get("/users/strict").json().get("name").asText()).isEqualTo("S");
    }

    private static byte[] concat(String head, byte[] middle, String tail) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(middle);
        out.writeBytes(tail.getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }
}
