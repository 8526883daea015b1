package io.tally.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every metric a deployed function flushes carries its stage: one stage's alarms never see another's metrics. */
class StageTagTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<JsonNode> flushed(SimpleMeterRegistry registry) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new EmfMetricsFlusher(registry, new PrintStream(out, true, StandardCharsets.UTF_8)).flush();
        List<JsonNode> documents = new ArrayList<>();
        for (String line : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!line.isBlank()) {
                documents.add(JSON.readTree(line));
            }
        }
        return documents;
    }

    @Test
    void stageInTheEnvironment_isADimensionOfEveryMetric_taggedOrNot() throws Exception {
        SimpleMeterRegistry registry = StageTag.apply(new SimpleMeterRegistry(), Map.of(StageTag.ENV, "prod"));
        registry.counter("tally.stream.poison").increment();
        registry.counter("tally.stream.guard", "reason", "past-failure").increment();
        DistributionSummary.builder("tally.stream.coalescing.ratio").register(registry).record(2.5);

        List<JsonNode> documents = flushed(registry);
        assertThat(documents).hasSize(2);
        for (JsonNode document : documents) {
            assertThat(document.path(StageTag.KEY).asText()).isEqualTo("prod");
            assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions/0").toString()).contains("\"Stage\"");
        }
        assertThat(documents).anySatisfy(document -> assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions"))
                .isEqualTo(JSON.valueToTree(List.of(List.of("Stage", "reason")))));
        assertThat(documents).anySatisfy(document -> assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions"))
                .isEqualTo(JSON.valueToTree(List.of(List.of("Stage")))));
    }

    @Test
    void noStage_leavesTheMetricsAsTheyAre() throws Exception {
        for (Map<String, String> env : List.of(Map.<String, String>of(), Map.of(StageTag.ENV, " "))) {
            SimpleMeterRegistry registry = StageTag.apply(new SimpleMeterRegistry(), env);
            registry.counter("tally.stream.poison").increment();
            JsonNode document = flushed(registry).get(0);
            assertThat(document.has(StageTag.KEY)).isFalse();
            assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions"))
                    .isEqualTo(JSON.valueToTree(List.of(List.of())));
        }
    }

    @Test
    void aRegistryWithMeters_isRefused_asTheyWouldMissTheStage() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.counter("tally.api.requests").increment();
        assertThatThrownBy(() -> StageTag.apply(registry, Map.of(StageTag.ENV, "dev")))
                .isInstanceOf(IllegalStateException.class);
    }
}
