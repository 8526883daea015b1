package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPResponse;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.http.Authorization;
import io.tally.testkit.UnreachableDynamoDb;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The template's Preflight route (OPTIONS on any path, no authorizer): API Gateway answers browsers' preflights from
 * the API's CORS configuration, and should one reach the function it is answered 204, never routed (a 401, 404 or 405
 * would fail the browser's preflight), with nothing read.
 */
class WriterHandlerPreflightTest {
    private final AtomicInteger tableCalls = new AtomicInteger();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final WriterHandler handler = new WriterHandler(new WriterApi(UnreachableDynamoDb.client(request -> {
        tableCalls.incrementAndGet();
        throw new IllegalStateException("a preflight must not touch the table");
    }), "tally", Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET, ShardSettings.DEFAULTS, "tally-activity",
            Authorization.required(true), registry), registry, () -> { });

    private static APIGatewayV2HTTPEvent request(String method, String path) {
        return APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0").withRouteKey("OPTIONS /{proxy+}").withRawPath(path)
                .withHeaders(Map.of("origin", "https://app.example.com", "access-control-request-method", "PUT",
                        "access-control-request-headers", "authorization,content-type"))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod(method).withPath(path)
                                .build())
                        .build())
                .withIsBase64Encoded(false).build();
    }

    @Test
    void options_onAProtectedPathWithoutAToken_isAnswered204WithoutRouting() {
        for (String path : new String[] {"/users/u1/items/i1", "/items/55", "/stats/global", "/no/such/route"}) {
            APIGatewayV2HTTPResponse response = handler.handleRequest(request("OPTIONS", path), null);
            assertThat(response.getStatusCode()).as(path).isEqualTo(204);
            assertThat(response.getBody()).as(path).isNull();
        }
        assertThat(tableCalls).hasValue(0);
        assertThat(registry.getMeters()).as("no route was matched or counted").isEmpty();
    }

    @Test
    void otherMethods_areStillRouted_andProtectedOnesNeedAToken() {
        APIGatewayV2HTTPResponse response = handler.handleRequest(request("PUT", "/items/55"), null);
        assertThat(response.getStatusCode()).isEqualTo(401);
    }
}
