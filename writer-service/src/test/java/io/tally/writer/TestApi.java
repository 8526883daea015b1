package io.tally.writer;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import com.fasterxml.jackson.databind.JsonNode;
import io.tally.testkit.LocalDynamoDb;
import io.tally.core.http.Json;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Drives the real {@link WriterHandler} with API Gateway HTTP API events, against a fresh table on embedded
 * DynamoDB Local, the way API Gateway would.
 */
public final class TestApi {
    private final WriterHandler handler;
    private final String table;

    private TestApi(String table, Clock clock) {
        this.table = table;
        this.handler = new WriterHandler(new WriterApi(LocalDynamoDb.client(), table, clock, WriterConfig.DEVELOPMENT_SECRET));
    }

    public static TestApi onFreshTable(Clock clock) {
        return new TestApi(LocalDynamoDb.createTable("writer"), clock);
    }

    public static TestApi onFreshTable() {
        return onFreshTable(Clock.systemUTC());
    }

    public String table() {
        return table;
    }

    public Response call(String method, String path) {
        return call(method, path, null, Map.of());
    }

    public Response call(String method, String path, String body) {
        return call(method, path, body, Map.of());
    }

    /** {@code path} may carry a query string, as a client would send it. */
    public Response call(String method, String path, String body, Map<String, String> headers) {
        return Response.of(handler.handleRequest(event(method, path, body, headers), null));
    }

    /** The body as API Gateway sends binary media or text it does not pass as a string: base64, flagged so. */
    public Response callBase64(String method, String path, byte[] body) {
        APIGatewayV2HTTPEvent event = event(method, path, null, Map.of());
        event.setBody(java.util.Base64.getEncoder().encodeToString(body));
        event.setIsBase64Encoded(true);
        return Response.of(handler.handleRequest(event, null));
    }

    /** Sends an event as it is: the test decides every field. */
    public Response send(APIGatewayV2HTTPEvent event) {
        return Response.of(handler.handleRequest(event, null));
    }

    /** The event API Gateway would send for this request, with a text body; the query decoded as API Gateway does. */
    public static APIGatewayV2HTTPEvent event(String method, String path, String body, Map<String, String> headers) {
        String rawPath = path;
        Map<String, String> query = null;
        int q = path.indexOf('?');
        if (q >= 0) {
            rawPath = path.substring(0, q);
            query = new LinkedHashMap<>();
            for (String pair : path.substring(q + 1).split("&")) {
                int eq = pair.indexOf('=');
                query.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
            }
        }
        Map<String, String> allHeaders = new LinkedHashMap<>();
        allHeaders.put("content-type", "application/json");
        headers.forEach((k, v) -> allHeaders.put(k.toLowerCase(java.util.Locale.ROOT), v));
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0")
                .withRouteKey("$default")
                .withRawPath(rawPath)
                .withRawQueryString(q >= 0 ? path.substring(q + 1) : "")
                .withQueryStringParameters(query)
                .withHeaders(allHeaders)
                .withBody(body)
                .withIsBase64Encoded(false)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder()
                                .withMethod(method)
                                .withPath(rawPath)
                                .withProtocol("HTTP/1.1")
                                .withSourceIp("127.0.0.1")
                                .build())
                        .withRequestId("test")
                        .build())
                .build();
        return event;
    }

    /** Leniently, as a gateway might: a malformed escape stays as sent, bytes that are not UTF-8 become U+FFFD. */
    private static String decode(String s) {
        try {
            return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return s;
        }
    }

    /** A response with its body parsed. */
    public record Response(int status, JsonNode body, Map<String, String> headers) {
        static Response of(APIGatewayV2HTTPResponse response) {
            try {
                return new Response(response.getStatusCode(), Json.MAPPER.readTree(response.getBody()), response.getHeaders());
            } catch (java.io.IOException e) {
                throw new AssertionError("response body is not JSON: " + response.getBody(), e);
            }
        }

        public String errorCode() {
            return body.path("error").path("code").asText(null);
        }

        public String errorField() {
            return body.path("error").path("field").asText(null);
        }

        public String text(String field) {
            return body.path(field).asText(null);
        }

        /** A client error in the error envelope with this code, naming {@code field} (when not null). */
        public void assertClientError(String code, String field) {
            org.assertj.core.api.Assertions.assertThat(status).as("status of %s", body).isBetween(400, 499);
            org.assertj.core.api.Assertions.assertThat(errorCode()).isEqualTo(code);
            if (field != null) {
                org.assertj.core.api.Assertions.assertThat(errorField()).isEqualTo(field);
            }
        }
    }
}
