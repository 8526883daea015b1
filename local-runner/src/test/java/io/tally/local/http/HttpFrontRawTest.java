package io.tally.local.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The front over raw sockets: whatever bytes arrive, the answer is either the function's or the contract's JSON
 * error envelope with a documented status, never Jetty's HTML page, never a hang. The function here echoes what it
 * received, so a test also sees which requests reached it.
 */
class HttpFrontRawTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Short, so that the stalled-client cases end soon; the assertions never measure time. */
    private static final Duration IDLE = Duration.ofMillis(500);

    private final AtomicInteger invocations = new AtomicInteger();
    private HttpFront front;

    @BeforeEach
    void start() throws IOException {
        front = HttpFront.start("127.0.0.1", 0, "tally-writer", (event, context) -> {
            invocations.incrementAndGet();
            ObjectNode body = JSON.createObjectNode();
            body.put("method", event.getRequestContext().getHttp().getMethod());
            body.put("rawPath", event.getRawPath());
            body.put("rawQueryString", event.getRawQueryString());
            body.put("bodyLength", event.getBody() == null ? 0 : event.getBody().length());
            return APIGatewayV2HTTPResponse.builder().withStatusCode(200)
                    .withHeaders(Map.of("Content-Type", "application/json")).withBody(body.toString()).build();
        }, Map.of(), FrontLimits.DEFAULTS.withIdleTimeout(IDLE));
    }

    @AfterEach
    void stop() {
        front.close();
    }

    private RawHttp.Answer send(String request) throws IOException {
        return RawHttp.send(front.port(), request);
    }

    private static String get(String target) {
        return "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
    }

    private void assertRefused(RawHttp.Answer answer, int status, String code) {
        assertThat(answer.status()).as(answer.toString()).isEqualTo(status);
        assertThat(answer.envelopeCode()).isEqualTo(code);
        assertThat(answer.body()).doesNotContain("<html", "<HTML", "Jetty", "Exception");
        assertThat(invocations).as("the function must not see a refused request").hasValue(0);
    }

    @Test
    void malformedPercentEncodingInTheQuery_reachesTheFunctionAsSent() throws IOException {
        RawHttp.Answer answer = send(get("/users/u/posts?cursor=%%%%"));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.json().get("rawQueryString").asText()).isEqualTo("cursor=%%%%");
        assertThat(answer.json().get("rawPath").asText()).isEqualTo("/users/u/posts");
    }

    @Test
    void malformedPercentEncodingInThePath_isTheEnvelopeOrTheFunctionsAnswer() throws IOException {
        for (String path : List.of("/users/%zz", "/users/%", "/users/%%%%/posts", "/users/%C0%AF", "/users/%00")) {
            RawHttp.Answer answer = send(get(path));
            if (answer.status() == 200) {
                assertThat(answer.json().get("rawPath").asText()).as(path).isEqualTo(path);
            } else {
                assertThat(answer.status()).as(path + " " + answer).isEqualTo(400);
                assertThat(answer.envelopeCode()).isEqualTo("bad_request");
            }
        }
    }

    @Test
    void doubleSlash_reachesTheFunctionAsARawPath() throws IOException {
        RawHttp.Answer answer = send(get("//users"));

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.json().get("rawPath").asText()).isEqualTo("//users");
    }

    @Test
    void unknownMethod_reachesTheFunction() throws IOException {
        RawHttp.Answer answer = send("BREW /users HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.json().get("method").asText()).isEqualTo("BREW");
    }

    @Test
    void contentTypeOfSeparatorsOnly_reachesTheFunction_not500() throws IOException {
        RawHttp.Answer answer = send("POST /users HTTP/1.1\r\nHost: localhost\r\nContent-Type: ;;;\r\n"
                + "Content-Length: 3\r\nConnection: close\r\n\r\nabc");

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.json().get("bodyLength").asInt()).isEqualTo(4); // "abc", base64-encoded as not text
    }

    @Test
    void garbageRequestLine_is400Envelope() throws IOException {
        assertRefused(send("HELLO\r\n\r\n"), 400, "bad_request");
    }

    @Test
    void binaryGarbage_is400EnvelopeOrAClosedConnection() throws IOException {
        byte[] bytes = new byte[256];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) (255 - i);
        }
        RawHttp.Answer answer = RawHttp.send(front.port(), bytes);

        if (!answer.none()) {
            assertRefused(answer, 400, "bad_request");
        }
        assertThat(invocations).hasValue(0);
    }

    @Test
    void unknownHttpVersion_is400NotA505() throws IOException {
        assertRefused(send("GET /users HTTP/9.9\r\nHost: localhost\r\n\r\n"), 400, "bad_request");
    }

    @Test
    void unknownTransferCoding_is400NotA501() throws IOException {
        assertRefused(send("POST /users HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: rot13\r\n\r\nabc"),
                400, "bad_request");
    }

    @Test
    void missingHost_is400Envelope() throws IOException {
        assertRefused(send("GET /users HTTP/1.1\r\n\r\n"), 400, "bad_request");
    }

    @Test
    void headerLineWithoutColon_is400Envelope() throws IOException {
        assertRefused(send("GET /users HTTP/1.1\r\nHost: localhost\r\nthis is no header\r\n\r\n"), 400, "bad_request");
    }

    @Test
    void conflictingContentLengths_is400Envelope() throws IOException {
        assertRefused(send("POST /users HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\n"
                + "abcde"), 400, "bad_request");
    }

    @Test
    void brokenChunkedBody_is400Envelope() throws IOException {
        assertRefused(send("POST /users HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n"),
                400, "bad_request");
    }

    @Test
    void hugeHeader_is431Envelope() throws IOException {
        assertRefused(send("GET /users HTTP/1.1\r\nHost: localhost\r\nX-Big: " + "a".repeat(64 * 1024) + "\r\n\r\n"),
                431, "headers_too_large");
    }

    @Test
    void manyHeaders_is431Envelope() throws IOException {
        StringBuilder request = new StringBuilder("GET /users HTTP/1.1\r\nHost: localhost\r\n");
        for (int i = 0; i < 2000; i++) {
            request.append("X-H").append(i).append(": v\r\n");
        }
        assertRefused(send(request.append("\r\n").toString()), 431, "headers_too_large");
    }

    @Test
    void hugeRequestLine_is414Envelope() throws IOException {
        assertRefused(send(get("/users/" + "a".repeat(64 * 1024))), 414, "uri_too_long");
    }

    @Test
    void bodyAboveTheCap_is413Envelope() throws IOException {
        int length = HttpFront.MAX_BODY_BYTES + 1;
        RawHttp.Answer answer = send("POST /users HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + length + "\r\n\r\n" + "x".repeat(length));

        assertRefused(answer, 413, "payload_too_large");
    }

    @Test
    void chunkedBodyAboveTheCap_is413Envelope() throws IOException {
        StringBuilder request = new StringBuilder("POST /users HTTP/1.1\r\nHost: localhost\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n");
        String chunk = "y".repeat(64 * 1024);
        for (int written = 0; written <= HttpFront.MAX_BODY_BYTES; written += chunk.length()) {
            request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        request.append("0\r\n\r\n");

        assertRefused(send(request.toString()), 413, "payload_too_large");
    }

    @Test
    void hugeDeclaredBody_is413AtOnceWithoutReadingIt() throws IOException {
        assertRefused(send("PUT /items/1 HTTP/1.1\r\nHost: localhost\r\nContent-Length: 9999999999\r\n\r\n"),
                413, "payload_too_large");
    }

    @Test
    void stalledBody_is408Envelope() throws IOException {
        try (Socket socket = RawHttp.open(front.port())) {
            RawHttp.write(socket.getOutputStream(), "POST /users HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n"
                    + "\r\n{\"name\":");
            // ... and nothing more: the idle timeout ends the wait.
            assertRefused(RawHttp.read(socket.getInputStream()), 408, "request_timeout");
        }
    }

    @Test
    void stalledHeaders_endWithTheEnvelopeOrAClosedConnection_neverAHang() throws IOException {
        try (Socket socket = RawHttp.open(front.port())) {
            RawHttp.write(socket.getOutputStream(), "GET /users HTTP/1.1\r\nHost: loc");
            RawHttp.Answer answer = RawHttp.read(socket.getInputStream());
            if (!answer.none()) {
                assertRefused(answer, 408, "request_timeout");
            }
        }
        assertThat(invocations).hasValue(0);
    }

    @Test
    void idleKeepAliveConnection_isClosed() throws IOException {
        try (Socket socket = RawHttp.open(front.port())) {
            RawHttp.write(socket.getOutputStream(), "GET /users HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertThat(RawHttp.read(socket.getInputStream()).status()).isEqualTo(200);
            // Sends nothing more: the server closes the connection (read returns end of stream, no hang).
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
    }

    @Test
    void saturated_answers503WithRetryAfter_andServesTheAdmittedOnes() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger started = new AtomicInteger();
        ExecutorService clients = Executors.newFixedThreadPool(2);
        try (HttpFront small = HttpFront.start("127.0.0.1", 0, "tally-writer", (event, context) -> {
            started.incrementAndGet();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("{}").build();
        }, Map.of(), FrontLimits.DEFAULTS.withWorkers(1, 1))) {
            List<Future<RawHttp.Answer>> admitted = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                admitted.add(clients.submit(() -> RawHttp.send(small.port(), get("/slow"))));
            }
            while (small.admittedRequests() < 2) {
                Thread.sleep(5);
            }

            RawHttp.Answer refused = RawHttp.send(small.port(), get("/one-too-many"));

            assertThat(refused.status()).as(refused.toString()).isEqualTo(503);
            assertThat(refused.envelopeCode()).isEqualTo("unavailable");
            assertThat(refused.header("retry-after")).isEqualTo("1");
            release.countDown();
            for (Future<RawHttp.Answer> answer : admitted) {
                assertThat(answer.get().status()).isEqualTo(200);
            }
            assertThat(started).hasValue(2);
        } finally {
            clients.shutdownNow();
        }
    }

    @Test
    void everyRefusal_carriesNoServerBanner() throws IOException {
        RawHttp.Answer answer = send("HELLO\r\n\r\n");

        assertThat(answer.header("server")).isNull();
        assertThat(answer.header("x-powered-by")).isNull();
    }

    @Test
    void nulByteInTheRequestLine_is400Envelope() throws IOException {
        byte[] request = "GET /us\u0000ers HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1);
        RawHttp.Answer answer = RawHttp.send(front.port(), request);

        assertRefused(answer, 400, "bad_request");
    }

    @Test
    void sendsHalfARequestThenCloses_noAnswerNeeded_frontKeepsServing() throws IOException {
        try (Socket socket = RawHttp.open(front.port())) {
            OutputStream out = socket.getOutputStream();
            RawHttp.write(out, "POST /users HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\nabc");
        }
        RawHttp.Answer next = send(get("/users"));
        assertThat(next.status()).isEqualTo(200);
        JsonNode body = next.json();
        assertThat(body.get("rawPath").asText()).isEqualTo("/users");
    }
}
