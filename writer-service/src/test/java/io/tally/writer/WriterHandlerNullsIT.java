package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.tally.testkit.LocalDynamoDb;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Events with null header names or values, or null query values (a hand-made event, a test tool, a proxy): the
 * handler answers as without them, never with an exception (which the front or Lambda would turn into a 500).
 */
class WriterHandlerNullsIT {
    private WriterHandler handler;

    @BeforeEach
    void setUp() {
        String table = LocalDynamoDb.createTable("nulls");
        handler = new WriterHandler(new WriterApi(LocalDynamoDb.client(), table, Clock.systemUTC(),
                WriterConfig.DEVELOPMENT_SECRET));
    }

    private APIGatewayV2HTTPResponse serve(String method, String path, Map<String, String> headers,
            Map<String, String> query, String body) {
        return handler.handleRequest(APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0").withRouteKey("$default").withRawPath(path)
                .withHeaders(headers).withQueryStringParameters(query)
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod(method).withPath(path)
                                .build())
                        .build())
                .withBody(body).withIsBase64Encoded(false).build(), null);
    }

    @Test
    void nullHeaderValueAndName_areIgnored() {
        Map<String, String> headers = new HashMap<>();
        headers.put("content-type", "application/json");
        headers.put("x-empty", null);
        headers.put("if-match", null);
        headers.put(null, "orphan");

        APIGatewayV2HTTPResponse created = serve("POST", "/users", headers, null,
                "{\"userId\":\"nul\",\"name\":\"N\",\"email\":\"n@example.com\"}");
        APIGatewayV2HTTPResponse patched = serve("PATCH", "/users/nul", headers, null, "{\"name\":\"M\"}");

        assertThat(created.getStatusCode()).as(created.getBody()).isEqualTo(201);
        // A null If-Match is no If-Match: the update is unconditional.
        assertThat(patched.getStatusCode()).as(patched.getBody()).isEqualTo(200);
    }

    @Test
    void nullQueryValue_isAnEmptyParameter() {
        Map<String, String> query = new HashMap<>();
        query.put("limit", null);

        APIGatewayV2HTTPResponse response = serve("GET", "/users/nobody/posts", Map.of(), query, null);

        assertThat(response.getStatusCode()).as(response.getBody()).isIn(400, 404);
        assertThat(response.getBody()).startsWith("{\"error\":{\"code\":");
    }
}
