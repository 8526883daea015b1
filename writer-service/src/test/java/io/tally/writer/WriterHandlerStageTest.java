package io.tally.writer;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayV2HTTPEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The writer as Lambda builds it from its environment: every metric it flushes carries the stage the template sets
 * ({@code STAGE}), so that the alarms and the dashboard of one stage never count another's requests.
 */
class WriterHandlerStageTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyFlushedMetric_hasTheStageDimension() throws Exception {
        ByteArrayOutputStream emf = new ByteArrayOutputStream();
        // The endpoint is never called: no route matches, so nothing is read.
        WriterHandler handler = new WriterHandler(Map.of("TABLE_NAME", "tally", "AWS_REGION", "eu-west-1",
                "DYNAMODB_ENDPOINT", "http://127.0.0.1:9", "CURSOR_SECRET", "stage-test-cursor-secret",
                "AUTH_ENABLED", "true", "STAGE", "prod"), new PrintStream(emf, true, StandardCharsets.UTF_8));

        handler.handleRequest(APIGatewayV2HTTPEvent.builder()
                .withVersion("2.0").withRouteKey("$default").withRawPath("/no/such/route")
                .withRequestContext(APIGatewayV2HTTPEvent.RequestContext.builder()
                        .withHttp(APIGatewayV2HTTPEvent.RequestContext.Http.builder().withMethod("GET")
                                .withPath("/no/such/route").build())
                        .build())
                .withIsBase64Encoded(false).build(), null);

        List<JsonNode> documents = new ArrayList<>();
        for (String line : emf.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                documents.add(JSON.readTree(line));
            }
        }
        assertThat(documents).isNotEmpty().allSatisfy(document -> {
            assertThat(document.path("Stage").asText()).isEqualTo("prod");
            assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions/0").toString()).contains("\"Stage\"");
        });
        assertThat(documents).anySatisfy(document -> assertThat(document.has(ApiMetrics.REQUESTS)).isTrue());
    }
}
