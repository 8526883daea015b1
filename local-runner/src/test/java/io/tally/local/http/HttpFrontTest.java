package io.tally.local.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The front over real HTTP on the loopback interface, with a fake function instead of the writer. */
class HttpFrontTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String INTERNAL_ERROR = "{\"error\":{\"code\":\"internal\",\"message\":\"internal error\"}}";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final AtomicInteger invocations = new AtomicInteger();
    /** The function behind the front; the default echoes the event it received and facts about its context. */
    private final AtomicReference<RequestHandler<APIGatewayV2HTTPEvent, APIGatewayV2HTTPResponse>> function =
            new AtomicReference<>(HttpFrontTest::echo);
    private HttpFront front;

    @BeforeEach
    void startFront() throws IOException {
        front = HttpFront.start("127.0.0.1", 0, "tally-writer", (event, context) -> {
            invocations.incrementAndGet();
            return function.get().handleRequest(event, context);
        });
    }

    @AfterEach
    void closeFront() {
        front.close();
    }

    private static APIGatewayV2HTTPResponse echo(APIGatewayV2HTTPEvent event, Context context) {
        try {
            return APIGatewayV2HTTPResponse.builder()
                    .withStatusCode(200)
                    .withHeaders(Map.of("Content-Type", "application/json",
                            "X-Function-Name", context.getFunctionName(),
                            "X-Remaining-Millis", Integer.toString(context.getRemainingTimeInMillis()),
                            "X-Lambda-Request-Id", context.getAwsRequestId()))
                    .withBody(JSON.writeValueAsString(event))
                    .build();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private HttpRequest.Builder request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create(front.baseUri() + pathAndQuery)).timeout(Duration.ofSeconds(10));
    }

    private HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        return client.send(request, BodyHandlers.ofString());
    }

    private JsonNode echoed(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<String> response = send(request);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return JSON.readTree(response.body());
    }

    @Test
    void get_buildsPayload2EventAsApiGatewayDoes() throws Exception {
        HttpResponse<String> response = send(request("/users/u1?limit=5")
                .header("User-Agent", "tally-test/1.0")
                .GET()
                .build());
        JsonNode event = JSON.readTree(response.body());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(event.get("version").asText()).isEqualTo("2.0");
        assertThat(event.get("routeKey").asText()).isEqualTo("$default");
        assertThat(event.get("rawPath").asText()).isEqualTo("/users/u1");
        assertThat(event.get("rawQueryString").asText()).isEqualTo("limit=5");
        assertThat(event.get("body").isNull()).isTrue();
        assertThat(event.get("isBase64Encoded").asBoolean()).isFalse();

        JsonNode context = event.get("requestContext");
        assertThat(context.get("routeKey").asText()).isEqualTo("$default");
        assertThat(context.get("stage").asText()).isEqualTo("$default");
        assertThat(context.get("accountId").asText()).isEqualTo("000000000000");
        assertThat(context.get("apiId").asText()).isEqualTo("local");
        assertThat(context.get("domainName").asText()).isEqualTo("127.0.0.1");
        assertThat(context.get("requestId").asText()).isNotBlank()
                .isEqualTo(response.headers().firstValue("apigw-requestid").orElseThrow());
        assertThat(context.get("time").asText()).matches("\\d{2}/[A-Z][a-z]{2}/\\d{4}:\\d{2}:\\d{2}:\\d{2} \\+0000");
        assertThat(context.get("timeEpoch").asLong()).isCloseTo(System.currentTimeMillis(), within(60_000L));
        JsonNode http = context.get("http");
        assertThat(http.get("method").asText()).isEqualTo("GET");
        assertThat(http.get("path").asText()).isEqualTo("/users/u1");
        assertThat(http.get("protocol").asText()).isEqualTo("HTTP/1.1");
        assertThat(http.get("sourceIp").asText()).isEqualTo("127.0.0.1");
        assertThat(http.get("userAgent").asText()).isEqualTo("tally-test/1.0");
    }

    @Test
    void headers_areLowerCasedAndRepeatedOnesJoinedWithComma() throws Exception {
        JsonNode event = echoed(request("/")
                .header("X-Tally-Trace", "abc")
                .header("X-Repeated", "one")
                .header("X-Repeated", "two")
                .GET()
                .build());

        JsonNode headers = event.get("headers");
        assertThat(headers.fieldNames()).toIterable().allSatisfy(name -> assertThat(name).isLowerCase());
        assertThat(headers.get("x-tally-trace").asText()).isEqualTo("abc");
        assertThat(headers.get("x-repeated").asText()).isEqualTo("one,two");
        assertThat(headers.get("host").asText()).isEqualTo("127.0.0.1:" + front.port());
        assertThat(headers.get("x-forwarded-for").asText()).isEqualTo("127.0.0.1");
        assertThat(headers.get("x-forwarded-proto").asText()).isEqualTo("http");
        assertThat(headers.get("x-forwarded-port").asText()).isEqualTo(Integer.toString(front.port()));
    }

    @Test
    void cookies_moveFromTheHeaderIntoTheCookieList() throws Exception {
        JsonNode event = echoed(request("/").header("Cookie", "theme=dark; session=abc123").GET().build());

        assertThat(event.get("cookies")).extracting(JsonNode::asText).containsExactly("theme=dark", "session=abc123");
        assertThat(event.get("headers").has("cookie")).isFalse();
    }

    @Test
    void rawPath_isPassedAsReceivedNotDecoded() throws Exception {
        JsonNode event = echoed(request("/users/a%2Fb%20c/posts").GET().build());

        assertThat(event.get("rawPath").asText()).isEqualTo("/users/a%2Fb%20c/posts");
        assertThat(event.at("/requestContext/http/path").asText()).isEqualTo("/users/a%2Fb%20c/posts");
    }

    @Test
    void queryString_rawKeptAndParametersDecodedWithRepeatsJoined() throws Exception {
        String query = "name=Ada%20Lovelace&tag=a&tag=b&flag&plus=1+2&cursor=eyJwayI6IlVTRVIjMSJ9";
        JsonNode event = echoed(request("/users?" + query).GET().build());

        assertThat(event.get("rawQueryString").asText()).isEqualTo(query);
        Map<String, String> parameters = JSON.convertValue(event.get("queryStringParameters"), new TypeReference<>() { });
        assertThat(parameters).containsExactlyInAnyOrderEntriesOf(Map.of(
                "name", "Ada Lovelace",
                "tag", "a,b",
                "flag", "",
                "plus", "1 2",
                "cursor", "eyJwayI6IlVTRVIjMSJ9"));
    }

    @Test
    void noQueryString_emptyRawQueryAndNoParameters() throws Exception {
        JsonNode event = echoed(request("/users").GET().build());

        assertThat(event.get("rawQueryString").asText()).isEmpty();
        assertThat(event.get("queryStringParameters").isNull()).isTrue();
    }

    @Test
    void jsonBody_isPassedAsText() throws Exception {
        String body = "{\"name\":\"Zoë\",\"email\":\"zoe@example.com\"}";
        JsonNode event = echoed(request("/users")
                .header("Content-Type", "application/json; charset=utf-8")
                .POST(BodyPublishers.ofString(body, StandardCharsets.UTF_8))
                .build());

        assertThat(event.get("isBase64Encoded").asBoolean()).isFalse();
        assertThat(event.get("body").asText()).isEqualTo(body);
        assertThat(event.at("/requestContext/http/method").asText()).isEqualTo("POST");
    }

    @Test
    void binaryBody_isBase64Encoded() throws Exception {
        byte[] bytes = {0, 1, 2, (byte) 0xFF, (byte) 0xFE, 'a'};
        JsonNode event = echoed(request("/upload")
                .header("Content-Type", "application/octet-stream")
                .PUT(BodyPublishers.ofByteArray(bytes))
                .build());

        assertThat(event.get("isBase64Encoded").asBoolean()).isTrue();
        assertThat(Base64.getDecoder().decode(event.get("body").asText())).isEqualTo(bytes);
    }

    @Test
    void textTypedBodyThatIsNotUtf8_isBase64Encoded() throws Exception {
        byte[] latin1 = "café".getBytes(StandardCharsets.ISO_8859_1);
        JsonNode event = echoed(request("/users")
                .header("Content-Type", "text/plain")
                .POST(BodyPublishers.ofByteArray(latin1))
                .build());

        assertThat(event.get("isBase64Encoded").asBoolean()).isTrue();
        assertThat(Base64.getDecoder().decode(event.get("body").asText())).isEqualTo(latin1);
    }

    @Test
    void bodyAtTheCap_reachesTheFunction() throws Exception {
        function.set((event, context) -> APIGatewayV2HTTPResponse.builder()
                .withStatusCode(200)
                .withBody(Integer.toString(event.getBody().length()))
                .build());

        HttpResponse<String> response = send(request("/users")
                .POST(BodyPublishers.ofString("x".repeat(HttpFront.MAX_BODY_BYTES)))
                .build());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(Integer.toString(HttpFront.MAX_BODY_BYTES));
    }

    @Test
    void bodyAboveTheCap_answers413WithoutCallingTheFunction() throws Exception {
        HttpResponse<String> response = send(request("/users")
                .header("Content-Type", "application/json")
                .POST(BodyPublishers.ofString("x".repeat(HttpFront.MAX_BODY_BYTES + 1)))
                .build());

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        JsonNode error = JSON.readTree(response.body()).get("error");
        assertThat(error.get("code").asText()).isEqualTo("payload_too_large");
        assertThat(error.get("message").asText()).contains(Integer.toString(HttpFront.MAX_BODY_BYTES));
        assertThat(invocations).hasValue(0);
    }

    @Test
    void functionThrows_answers500JsonWithoutStackTrace() throws Exception {
        function.set((event, context) -> {
            throw new IllegalStateException("secret detail at io.tally.Something");
        });

        HttpResponse<String> response = send(request("/users").GET().build());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(response.body()).isEqualTo(INTERNAL_ERROR);
    }

    @Test
    void functionReturnsNothing_answers500Json() throws Exception {
        function.set((event, context) -> null);

        HttpResponse<String> response = send(request("/users").GET().build());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo(INTERNAL_ERROR);
    }

    @Test
    void functionReturnsBadBase64_answers500Json() throws Exception {
        function.set((event, context) -> APIGatewayV2HTTPResponse.builder()
                .withStatusCode(200).withBody("not base64!").withIsBase64Encoded(true).build());

        HttpResponse<String> response = send(request("/users").GET().build());

        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).isEqualTo(INTERNAL_ERROR);
    }

    @Test
    void response_statusHeadersCookiesAndBase64BodyAreWrittenBack() throws Exception {
        byte[] bytes = {(byte) 0x89, 'P', 'N', 'G', 0};
        function.set((event, context) -> APIGatewayV2HTTPResponse.builder()
                .withStatusCode(201)
                .withHeaders(Map.of("Content-Type", "image/png", "Location", "/files/1"))
                .withMultiValueHeaders(Map.of("X-Many", List.of("a", "b")))
                .withCookies(List.of("session=abc; HttpOnly", "theme=dark"))
                .withBody(Base64.getEncoder().encodeToString(bytes))
                .withIsBase64Encoded(true)
                .build());

        HttpResponse<byte[]> response = client.send(request("/files").POST(BodyPublishers.noBody()).build(),
                BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(201);
        assertThat(response.body()).isEqualTo(bytes);
        assertThat(response.headers().firstValue("content-type")).hasValue("image/png");
        assertThat(response.headers().firstValue("location")).hasValue("/files/1");
        assertThat(response.headers().allValues("x-many")).containsExactly("a", "b");
        assertThat(response.headers().allValues("set-cookie")).containsExactlyInAnyOrder("session=abc; HttpOnly", "theme=dark");
    }

    @Test
    void noContentResponse_hasNoBody() throws Exception {
        function.set((event, context) -> APIGatewayV2HTTPResponse.builder().withStatusCode(204).build());

        HttpResponse<String> response = send(request("/users/u1").DELETE().build());

        assertThat(response.statusCode()).isEqualTo(204);
        assertThat(response.body()).isEmpty();
    }

    @Test
    void context_namesTheFunctionAndCountsDownFromItsTimeout() throws Exception {
        HttpResponse<String> response = send(request("/").GET().build());

        assertThat(response.headers().firstValue("x-function-name")).hasValue("tally-writer");
        assertThat(Integer.parseInt(response.headers().firstValue("x-remaining-millis").orElseThrow()))
                .isPositive().isLessThanOrEqualTo((int) HttpFront.FUNCTION_TIMEOUT.toMillis());
        assertThat(response.headers().firstValue("x-lambda-request-id").orElseThrow())
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    }

    @Test
    void localRoute_exactPathIsAnsweredByTheRouteAndEveryOtherPathByTheFunction() throws Exception {
        AtomicReference<APIGatewayV2HTTPEvent> routed = new AtomicReference<>();
        AtomicReference<String> routeFunctionName = new AtomicReference<>();
        try (HttpFront withRoute = HttpFront.start("127.0.0.1", 0, "tally-writer", (event, context) ->
                        APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("function").build(),
                Map.of("/events", (event, context) -> {
                    routed.set(event);
                    routeFunctionName.set(context.getFunctionName());
                    return APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("route").build();
                }))) {
            String base = withRoute.baseUri().toString();

            assertThat(send(HttpRequest.newBuilder(URI.create(base + "/events?limit=5")).GET().build()).body())
                    .isEqualTo("route");
            for (String other : List.of("/events/", "/events/1", "/eventsx", "/Events", "/", "/users")) {
                assertThat(send(HttpRequest.newBuilder(URI.create(base + other)).GET().build()).body())
                        .as(other).isEqualTo("function");
            }
        }
        // The route gets the same event the function would, query parameters included.
        assertThat(routed.get().getRawPath()).isEqualTo("/events");
        assertThat(routed.get().getQueryStringParameters()).containsEntry("limit", "5");
        assertThat(routeFunctionName.get()).isEqualTo("tally-local");
    }

    @Test
    void localRoute_thatThrows_answers500JsonLikeTheFunction() throws Exception {
        try (HttpFront withRoute = HttpFront.start("127.0.0.1", 0, "tally-writer", HttpFrontTest::echo,
                Map.of("/events", (event, context) -> {
                    throw new IllegalStateException("boom");
                }))) {
            HttpResponse<String> response = send(HttpRequest.newBuilder(
                    URI.create(withRoute.baseUri() + "/events")).GET().build());

            assertThat(response.statusCode()).isEqualTo(500);
            assertThat(response.body()).isEqualTo(INTERNAL_ERROR);
        }
    }

    @Test
    void localRoute_thatIsNoPath_isRefused() {
        assertThatThrownBy(() -> HttpFront.start("127.0.0.1", 0, "tally-writer", HttpFrontTest::echo,
                Map.of("events", HttpFrontTest::echo)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("/events");
    }

    @Test
    void close_letsARequestInFlightFinishThenRefusesConnections() throws Exception {
        function.set((event, context) -> {
            sleep(300);
            return APIGatewayV2HTTPResponse.builder().withStatusCode(200).withBody("done").build();
        });
        CompletableFuture<HttpResponse<String>> inFlight =
                client.sendAsync(request("/slow").GET().build(), BodyHandlers.ofString());
        while (invocations.get() == 0) {
            sleep(5);
        }

        front.close();

        assertThat(inFlight.get().statusCode()).isEqualTo(200);
        assertThat(inFlight.get().body()).isEqualTo("done");
        assertThatThrownBy(() -> send(request("/").GET().build())).isInstanceOf(ConnectException.class);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
