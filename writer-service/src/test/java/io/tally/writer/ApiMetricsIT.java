package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.ShardSettings;
import io.tally.core.metrics.EmfMetricsFlusher;
import io.tally.testkit.LocalDynamoDb;
import io.tally.core.http.Authorization;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The writer's meters: per route template, status and error code; in Lambda flushed as EMF per invocation. */
class ApiMetricsIT {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ByteArrayOutputStream emf = new ByteArrayOutputStream();
    private WriterHandler handler;

    @BeforeEach
    void setUp() {
        String table = LocalDynamoDb.createTable("metrics");
        WriterApi api = new WriterApi(LocalDynamoDb.client(), table, Clock.systemUTC(), WriterConfig.DEVELOPMENT_SECRET,
                ShardSettings.DEFAULTS, null, Authorization.OPEN, registry);
        handler = new WriterHandler(api, registry,
                new EmfMetricsFlusher(registry, new PrintStream(emf, true, StandardCharsets.UTF_8))::flush);
    }

    private int serve(String method, String path, String body) {
        APIGatewayV2HTTPEvent event = APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0").withRouteKey("$default").withRawPath(path)
                .withHeaders(Map.of("content-type", "application/json"))
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod(method).withPath(path)
                                .build())
                        .build())
                .withBody(body).withIsBase64Encoded(false).build();
        return handler.handleRequest(event, null).getStatusCode();
    }

    private double requests(String route, String status) {
        var counter = registry.find(ApiMetrics.REQUESTS).tag("route", route).tag("status", status).counter();
        return counter == null ? 0 : counter.count();
    }

    private double errors(String route, String code) {
        var counter = registry.find(ApiMetrics.ERRORS).tag("route", route).tag("code", code).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void requests_areCountedByRouteTemplateAndStatus_errorsByCode() {
        assertThat(serve("POST", "/users", "{\"userId\":\"ann\",\"name\":\"Ann\",\"email\":\"ann@example.com\"}"))
                .isEqualTo(201);
        assertThat(serve("POST", "/users", "{\"userId\":\"ann\",\"name\":\"Ann\",\"email\":\"ann@example.com\"}"))
                .isEqualTo(409);
        assertThat(serve("GET", "/users/ann", null)).isEqualTo(200);
        assertThat(serve("GET", "/users/bob", null)).isEqualTo(404);
        assertThat(serve("POST", "/users", "{\"name\":\"\"}")).isEqualTo(400);
        assertThat(serve("GET", "/no/such/route", null)).isEqualTo(404);
        assertThat(serve("DELETE", "/users", null)).isEqualTo(405);

        assertThat(requests("/users", "201")).isEqualTo(1);
        assertThat(requests("/users", "409")).isEqualTo(1);
        assertThat(requests("/users", "400")).isEqualTo(1);
        // One series per template, whatever the id in the path.
        assertThat(requests("/users/{userId}", "200")).isEqualTo(1);
        assertThat(requests("/users/{userId}", "404")).isEqualTo(1);
        assertThat(registry.find(ApiMetrics.REQUESTS).tag("route", "/users/ann").counter()).isNull();
        assertThat(requests(ApiMetrics.UNMATCHED, "404")).isEqualTo(1);
        assertThat(requests(ApiMetrics.UNMATCHED, "405")).isEqualTo(1);

        assertThat(errors("/users", "conflict")).isEqualTo(1);
        assertThat(errors("/users", "validation_failed")).isEqualTo(1);
        assertThat(errors("/users/{userId}", "not_found")).isEqualTo(1);
        assertThat(errors(ApiMetrics.UNMATCHED, "method_not_allowed")).isEqualTo(1);
        assertThat(registry.find(ApiMetrics.ERRORS).tag("route", "/users/{userId}").tag("code", "ok").counter()).isNull();
        assertThat(registry.find(ApiMetrics.ERRORS).counters()).noneMatch(c -> c.getId().getTag("route").equals("/users")
                && c.getId().getTag("code").equals("created"));

        assertThat(registry.find(ApiMetrics.LATENCY).tag("route", "/users").timer().count()).isEqualTo(3);
        assertThat(registry.find(ApiMetrics.LATENCY).tag("route", "/users/{userId}").timer().count()).isEqualTo(2);
    }

    @Test
    void eachInvocation_flushesItsOwnIncreaseAsEmf() throws Exception {
        serve("GET", "/users/nobody", null);
        serve("GET", "/users/nobody", null);

        List<JsonNode> documents = new ArrayList<>();
        for (String line : emf.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                documents.add(JSON.readTree(line));
            }
        }
        List<JsonNode> requestDocuments = documents.stream().filter(d -> d.has(ApiMetrics.REQUESTS)).toList();
        // One per invocation, each with that invocation's one request (an increase, not the running total).
        assertThat(requestDocuments).hasSize(2).allSatisfy(document -> {
            assertThat(document.get(ApiMetrics.REQUESTS).asDouble()).isEqualTo(1);
            assertThat(document.get("route").asText()).isEqualTo("/users/{userId}");
            assertThat(document.get("status").asText()).isEqualTo("404");
            assertThat(document.at("/_aws/CloudWatchMetrics/0/Namespace").asText()).isEqualTo("Tally");
            assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions/0").toString())
                    .contains("route").contains("status");
        });
        assertThat(documents).anySatisfy(document -> {
            assertThat(document.get(ApiMetrics.ERRORS).asDouble()).isEqualTo(1);
            assertThat(document.get("code").asText()).isEqualTo("not_found");
        });
        assertThat(documents).anySatisfy(document -> assertThat(document.has(ApiMetrics.LATENCY + ".count")).isTrue());
    }

    @Test
    void priming_isNeitherFlushedNorKept() {
        handler.unmetered(() -> serve("GET", "/priming", null));

        assertThat(emf.size()).isZero();
        assertThat(registry.getMeters()).isEmpty();

        serve("GET", "/priming", null);
        assertThat(requests(ApiMetrics.UNMATCHED, "404")).isEqualTo(1);
        assertThat(emf.toString(StandardCharsets.UTF_8)).contains(ApiMetrics.REQUESTS);
    }
}
