package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.tally.local.http.RawHttp;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Thousands of malformed requests (seeded, so a failure replays: {@code -Dtally.fuzz.seed=N}) to every route the
 * writer registers (its {@code Router.describe()}, as {@code GET /dashboard/routes.json} lists it) and the local
 * ones, over raw sockets against the whole local runner: bad escapes in paths and queries, wrong methods, broken
 * JSON, binary and oversized bodies, odd headers, mangled request lines. Every answer must be a documented status
 * with the JSON error envelope (or, for a 2xx, the route's own content), never a 5xx, never HTML, never a hang
 * (each read is bounded by a socket timeout).
 */
class FrontFuzzIT {
    private static final int REQUESTS = Integer.getInteger("tally.fuzz.requests", 3000);
    private static final long SEED = Long.getLong("tally.fuzz.seed", 14L);
    private static final Pattern PARAMETER = Pattern.compile("\\{[^}]+}");

    private static LocalRunner runner;
    private static List<String> routes;

    @BeforeAll
    static void start() throws IOException {
        runner = LocalRunner.start(RunnerSettings.ephemeral());
        Api api = new Api(runner.baseUri());
        api.ok("POST", "/users", "{\"userId\":\"fuzz-user\",\"name\":\"Fuzz\",\"email\":\"fuzz@example.com\"}");
        api.ok("POST", "/users/fuzz-user/posts", "{\"postId\":\"fuzz-post\",\"title\":\"T\",\"body\":\"B\"}");
        routes = new ArrayList<>();
        api.get("/dashboard/routes.json").get("routes").forEach(route -> routes.add(route.asText()));
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    private static RawHttp.Answer send(String request) throws IOException {
        return RawHttp.send(runner.port(), request);
    }

    @Test
    void routes_includeEveryDomainAndTheLocalOnes() {
        assertThat(routes).contains("POST /users", "GET /users/{userId}/posts", "PUT /items/{itemId}",
                "GET /stats/global", "GET /events", "GET /metrics").hasSizeGreaterThan(40);
    }

    @Test
    void malformedPercentEncodingInTheCursor_is400BadRequest() throws IOException {
        RawHttp.Answer answer = send("GET /users/u/posts?cursor=%%%% HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

        assertThat(answer.status()).as(answer.toString()).isEqualTo(400);
        assertThat(answer.envelopeCode()).isEqualTo("bad_request");
    }

    @Test
    void doubleSlash_isTheEnvelope() throws IOException {
        RawHttp.Answer get = send("GET //users HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        RawHttp.Answer unknown = send("GET //nothing//here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");

        assertThat(get.status()).as(get.toString()).isEqualTo(405);
        assertThat(get.envelopeCode()).isEqualTo("method_not_allowed");
        assertThat(get.header("allow")).isEqualTo("POST");
        assertThat(unknown.status()).as(unknown.toString()).isEqualTo(404);
        assertThat(unknown.envelopeCode()).isEqualTo("not_found");
    }

    @Test
    void nullHeaderValueFreeRequest_emptyHeaderValue_isServed() throws IOException {
        RawHttp.Answer answer = send("GET /users/fuzz-user HTTP/1.1\r\nHost: x\r\nX-Empty:\r\nIf-Match:\r\n"
                + "Connection: close\r\n\r\n");

        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        assertThat(answer.json().get("userId").asText()).isEqualTo("fuzz-user");
    }

    @Test
    void malformedRequests_toEveryRoute_areAnsweredWithDocumentedJson() throws IOException {
        Random random = new Random(SEED);
        Map<Integer, Integer> statuses = new TreeMap<>();
        java.util.Set<String> fuzzed = new java.util.HashSet<>();
        for (int i = 0; i < REQUESTS; i++) {
            // Every route in turn, then at random.
            String route = i < routes.size() ? routes.get(i) : routes.get(random.nextInt(routes.size()));
            fuzzed.add(route);
            Fuzzed request = fuzz(random, route);
            RawHttp.Answer answer = RawHttp.send(runner.port(), request.bytes(), request.halfClose());
            String context = "request #" + i + " (seed " + SEED + ") for " + route + ": "
                    + printable(request.bytes()) + "\n-> " + answer;
            check(answer, request, context);
            statuses.merge(answer.status(), 1, Integer::sum);
        }
        assertThat(fuzzed).containsExactlyInAnyOrderElementsOf(routes);
        // The fuzzing reached the function and its validation, not only the server's own refusals.
        assertThat(statuses.keySet()).as(statuses.toString()).contains(200, 400, 404, 405);
    }

    private static void check(RawHttp.Answer answer, Fuzzed request, String context) {
        assertThat(answer.none()).as("no answer: " + context).isFalse();
        assertThat(answer.status()).as(context).isIn(RawHttp.DOCUMENTED).isNotEqualTo(503);
        assertThat(answer.body()).as(context).doesNotContain("\tat ", "Exception", "Jetty");
        if (request.head()) {
            return; // no body to check
        }
        if (answer.status() >= 400) {
            try {
                answer.envelopeCode();
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "\n" + context, e);
            }
            return;
        }
        if (answer.status() == 204) {
            // A CORS preflight's answer: no content, so no content type either.
            assertThat(answer.body()).as(context).isEmpty();
            return;
        }
        String type = answer.header("content-type");
        assertThat(type).as(context).isNotNull();
        if (request.head() || answer.body().isEmpty()) {
            return;
        }
        if (type.startsWith("application/json")) {
            JsonNode json = answer.json();
            assertThat(json.isObject()).as(context).isTrue();
        } else {
            // The dashboard's files and the local /metrics are the only routes that answer other than JSON.
            assertThat(request.path()).as(context).matches("/+(dashboard|metrics).*");
        }
    }

    /** A request's bytes; {@code halfClose}: the client then shuts its output (it has nothing more to send). */
    private record Fuzzed(byte[] bytes, String path, boolean head, boolean halfClose) {
    }

    private static final String[] METHODS = {"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "TRACE",
            "BREW", "get", "CONNECT", "PROPFIND", "M-SEARCH"};
    private static final String[] VALUES = {"fuzz-user", "fuzz-post", "x", "%", "%%", "%%%%", "%zz", "%2", "%2F",
            "%00", "%C0%AF", "%FF%FE", "%E2%82", "a%20b", "caf%C3%A9", "..", ".", "a+b", "%252F", "-", "_",
            "search", "global-cycle:5", "back-catalogue", "2026-13", "2026-01", "a;b", "a,b", "~", "%7B%7D", "{}",
            "\u00e9", "x".repeat(65), "1".repeat(300), "null", "0", "-1", "99999999999999999999"};
    private static final String[] QUERIES = {"", "limit=5", "limit=0", "limit=101", "limit=-1", "limit=abc",
            "limit=%%", "cursor=%%%%", "cursor=abc", "cursor=", "cursor=eyJwayI6IlVTRVIjMSJ9", "state=assigned",
            "state=bogus", "status=created", "status=%zz", "from=2026-01-01&to=2026-01-02",
            "from=2026-01-01&to=2030-01-01", "from=x&to=y", "type=image&tag=t", "q=", "q=%", "q=hello",
            "sort=name", "sort=bogus", "limit=1&limit=2", "&&&", "=", "%=%", "a=%E2%82", "orgs=abc&selectors=x"};
    private static final String[] BODIES = {"", "{}", "{", "[]", "null", "\"text\"", "{\"name\":\"A\",\"email\":\"a@b.c\"}",
            "{\"name\":123}", "{\"unknown\":1}", "{\"title\":\"\",\"body\":\"\"}", "{\"score\":1e400,\"selector\":\"x\"}",
            "{\"score\":-1,\"selector\":\"back-catalogue\"}", "{\"state\":\"completed\",\"correct\":\"yes\"}",
            "{\"name\":\"\\ud800\"}", "{\"a\":{\"b\":{\"c\":[1,2,{\"d\":null}]}}}", "{\"name\":\"A\"}{\"x\":1}",
            "{\"at\":\"not-a-time\"}", "{\"type\":\"image\",\"title\":\"t\"}", "{\"authorId\":\"fuzz-user\",\"text\":\"hi\"}",
            "\u0000\u0001\u0002", "{'single':'quotes'}", "{\"name\":\"" + "n".repeat(200) + "\"}"};

    private static Fuzzed fuzz(Random random, String route) {
        String[] parts = route.split(" ", 2);
        String method = random.nextInt(3) == 0 ? METHODS[random.nextInt(METHODS.length)] : parts[0];
        Matcher matcher = PARAMETER.matcher(parts[1]);
        StringBuilder path = new StringBuilder();
        while (matcher.find()) {
            matcher.appendReplacement(path, Matcher.quoteReplacement(VALUES[random.nextInt(VALUES.length)]));
        }
        matcher.appendTail(path);
        String target = path.toString();
        switch (random.nextInt(12)) {
            case 0 -> target = "/" + target;
            case 1 -> target = target + "/";
            case 2 -> target = target.replace("/", "//");
            case 3 -> target = target + "/extra";
            default -> { }
        }
        String query = QUERIES[random.nextInt(QUERIES.length)];
        if (!query.isEmpty()) {
            target = target + "?" + query;
        }
        String version = random.nextInt(20) == 0 ? new String[] {"HTTP/1.0", "HTTP/2.0", "HTTP/1.1 ", "HTTP/1.x",
                "http/1.1"}[random.nextInt(5)] : "HTTP/1.1";

        byte[] body;
        int kind = random.nextInt(20);
        if (kind == 0) {
            body = new byte[random.nextInt(2048)];
            random.nextBytes(body);
        } else if (kind == 1) {
            body = ("{\"name\":\"" + "b".repeat(64 * 1024 + random.nextInt(1024)) + "\"}").getBytes(StandardCharsets.UTF_8);
        } else {
            body = BODIES[random.nextInt(BODIES.length)].getBytes(StandardCharsets.UTF_8);
        }

        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(target).append(' ').append(version).append("\r\n");
        if (random.nextInt(30) != 0) {
            head.append("Host: localhost\r\n");
        }
        switch (random.nextInt(8)) {
            case 0 -> head.append("Content-Type: application/json; charset=utf-8\r\n");
            case 1 -> head.append("Content-Type: application/octet-stream\r\n");
            case 2 -> head.append("Content-Type: text/plain; charset=iso-8859-1\r\n");
            case 3 -> head.append("Content-Type: ;;;\r\n");
            default -> head.append("Content-Type: application/json\r\n");
        }
        switch (random.nextInt(10)) {
            case 0 -> head.append("If-Match: \"1\"\r\n");
            case 1 -> head.append("If-Match: garbage\r\n");
            case 2 -> head.append("If-Match: W/\"99999999999999999999999\"\r\n");
            case 3 -> head.append("If-Match:\r\n");
            case 4 -> head.append("X-Junk: \u00ff\u00fe\r\n");
            case 5 -> head.append("Cookie: ;;=;a\r\n");
            case 6 -> head.append("Expect: 100-continue\r\n");
            case 7 -> head.append("Accept: text/html\r\n");
            default -> { }
        }
        boolean chunked = random.nextInt(10) == 0;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (chunked) {
            head.append("Transfer-Encoding: chunked\r\n");
        } else if (random.nextInt(25) == 0) {
            head.append("Content-Length: ").append(body.length + 1 + random.nextInt(3)).append("\r\n");
            // More declared than sent, then the client shuts its output: a truncated body (HttpFrontRawTest has the
            // client that stalls instead, whose 408 takes the idle timeout).
            head.append("Connection: close\r\n\r\n");
            out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.writeBytes(body);
            return new Fuzzed(out.toByteArray(), target, method.equalsIgnoreCase("HEAD"), true);
        } else {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        if (chunked) {
            if (random.nextBoolean()) {
                out.writeBytes((Integer.toHexString(body.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes(body);
                out.writeBytes("\r\n0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            } else {
                out.writeBytes(("zz\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.writeBytes(body);
            }
        } else {
            out.writeBytes(body);
        }
        return new Fuzzed(out.toByteArray(), target, method.equalsIgnoreCase("HEAD"), false);
    }

    private static String printable(byte[] bytes) {
        String text = new String(bytes, 0, Math.min(bytes.length, 400), StandardCharsets.ISO_8859_1);
        return text.replace("\r\n", "\\r\\n").replaceAll("[^\\x20-\\x7e]", "?");
    }
}
