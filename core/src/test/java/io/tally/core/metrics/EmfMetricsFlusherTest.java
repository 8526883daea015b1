package io.tally.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

class EmfMetricsFlusherTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    // EMF rejects timestamps more than two weeks old, so the fixed instant is taken from today.
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

    // A mock clock keeps Micrometer's sliding-window max from rotating during a test.
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, new MockClock());
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final EmfMetricsFlusher flusher = new EmfMetricsFlusher(registry,
            new PrintStream(buffer, true, StandardCharsets.UTF_8), "Tally", Clock.fixed(NOW, ZoneOffset.UTC));

    @Test
    void flush_countersTimersAndSummariesWithTags_writesOneEmfDocumentPerTagSet() {
        registry.counter("tally.stream.records", "outcome", "applied", "entity", "Post").increment(3);
        registry.timer("tally.stream.batch.duration", "outcome", "applied", "entity", "Post")
                .record(40, TimeUnit.MILLISECONDS);
        DistributionSummary.builder("tally.events.published.batch").baseUnit("events").tag("bus", "tally-events")
                .register(registry).record(7);

        List<JsonNode> documents = flush();

        assertThat(documents).hasSize(2);
        JsonNode posts = documentWith(documents, "tally.stream.records");
        assertThat(posts.at("/_aws/Timestamp").asLong()).isEqualTo(NOW.toEpochMilli());
        JsonNode directive = posts.at("/_aws/CloudWatchMetrics/0");
        assertThat(directive.path("Namespace").asText()).isEqualTo("Tally");
        assertThat(directive.path("Dimensions")).isEqualTo(JSON.valueToTree(List.of(List.of("entity", "outcome"))));
        assertThat(metrics(posts)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "tally.stream.records", "Count",
                "tally.stream.batch.duration.count", "Count",
                "tally.stream.batch.duration.sum", "Milliseconds",
                "tally.stream.batch.duration.max", "Milliseconds"));
        assertThat(posts.path("entity").asText()).isEqualTo("Post");
        assertThat(posts.path("outcome").asText()).isEqualTo("applied");
        assertThat(posts.path("tally.stream.records").asDouble()).isEqualTo(3);
        assertThat(posts.path("tally.stream.batch.duration.count").asDouble()).isEqualTo(1);
        assertThat(posts.path("tally.stream.batch.duration.sum").asDouble()).isEqualTo(40);
        assertThat(posts.path("tally.stream.batch.duration.max").asDouble()).isEqualTo(40);

        JsonNode batches = documentWith(documents, "tally.events.published.batch.count");
        assertThat(batches.at("/_aws/CloudWatchMetrics/0/Dimensions"))
                .isEqualTo(JSON.valueToTree(List.of(List.of("bus"))));
        assertThat(batches.path("bus").asText()).isEqualTo("tally-events");
        assertThat(metrics(batches)).containsExactlyInAnyOrderEntriesOf(Map.of(
                "tally.events.published.batch.count", "Count",
                "tally.events.published.batch.sum", "None",
                "tally.events.published.batch.max", "None"));
        assertThat(batches.path("tally.events.published.batch.sum").asDouble()).isEqualTo(7);
    }

    @Test
    void flush_twice_reportsCounterIncreasesSinceThePreviousFlushAndSkipsUnchangedOnes() {
        Counter records = registry.counter("tally.stream.records", "outcome", "applied");
        Counter skipped = registry.counter("tally.stream.records", "outcome", "skipped");
        records.increment(5);
        skipped.increment(2);
        flush();

        records.increment(3);
        List<JsonNode> second = flush();

        assertThat(second).hasSize(1);
        assertThat(second.get(0).path("outcome").asText()).isEqualTo("applied");
        assertThat(second.get(0).path("tally.stream.records").asDouble()).isEqualTo(3);
        assertThat(flush()).isEmpty();
    }

    @Test
    void flush_twice_reportsTimerCountSumAndMaxOfTheSecondIntervalOnly() {
        Timer timer = registry.timer("tally.stream.batch.duration");
        timer.record(10, TimeUnit.MILLISECONDS);
        timer.record(30, TimeUnit.MILLISECONDS);
        JsonNode first = flush().get(0);
        timer.record(5, TimeUnit.MILLISECONDS);

        JsonNode second = flush().get(0);

        assertThat(first.path("tally.stream.batch.duration.count").asDouble()).isEqualTo(2);
        assertThat(first.path("tally.stream.batch.duration.sum").asDouble()).isEqualTo(40);
        assertThat(first.path("tally.stream.batch.duration.max").asDouble()).isEqualTo(30);
        assertThat(second.path("tally.stream.batch.duration.count").asDouble()).isEqualTo(1);
        assertThat(second.path("tally.stream.batch.duration.sum").asDouble()).isEqualTo(5);
        // The registry's windowed max still says 30 ms, from the first interval.
        assertThat(second.path("tally.stream.batch.duration.max").asDouble()).isEqualTo(5);
    }

    @Test
    void flush_gauges_reportsTheirValuesEveryTimeAndSkipsNaN() {
        Gauge.builder("tally.stream.inflight", new AtomicInteger(4), AtomicInteger::get).tags(Tags.of("shard", "1"))
                .strongReference(true).register(registry);
        Gauge.builder("tally.stream.nan", () -> Double.NaN).register(registry);

        JsonNode first = flush().get(0);
        JsonNode second = flush().get(0);

        assertThat(metrics(first)).containsOnlyKeys("tally.stream.inflight");
        assertThat(first.path("tally.stream.inflight").asDouble()).isEqualTo(4);
        assertThat(second.path("tally.stream.inflight").asDouble()).isEqualTo(4);
    }

    @Test
    void flush_bytesSummary_usesTheBytesUnit() {
        DistributionSummary.builder("tally.events.detail.size").baseUnit("bytes").register(registry).record(512);

        JsonNode document = flush().get(0);

        assertThat(metrics(document)).containsEntry("tally.events.detail.size.sum", "Bytes");
    }

    @Test
    void flush_moreThan100MetricsOfOneTagSet_splitsIntoDocumentsOfAtMost100() {
        IntStream.range(0, 150).forEach(i -> registry.counter("tally.test.c" + i, "shard", "1").increment(i + 1));

        List<JsonNode> documents = flush();

        assertThat(documents).hasSize(2);
        assertThat(documents).extracting(document -> metrics(document).size()).containsExactlyInAnyOrder(100, 50);
        List<String> names = new ArrayList<>();
        for (JsonNode document : documents) {
            assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions"))
                    .isEqualTo(JSON.valueToTree(List.of(List.of("shard"))));
            assertThat(document.path("shard").asText()).isEqualTo("1");
            metrics(document).keySet().forEach(name -> {
                names.add(name);
                int i = Integer.parseInt(name.substring("tally.test.c".length()));
                assertThat(document.path(name).asDouble()).isEqualTo(i + 1);
            });
        }
        assertThat(names).hasSize(150).doesNotHaveDuplicates();
    }

    @Test
    void flush_moreThan30Tags_keepsThirtyAsDimensionsAndTheRestAsProperties() {
        List<Tag> tags = IntStream.range(0, 35).mapToObj(i -> Tag.of(String.format("k%02d", i), "v" + i)).toList();
        registry.counter("tally.test.wide", tags).increment();

        JsonNode document = flush().get(0);

        JsonNode dimensions = document.at("/_aws/CloudWatchMetrics/0/Dimensions");
        assertThat(dimensions).hasSize(1);
        assertThat(dimensions.get(0)).hasSize(30);
        assertThat(dimensions.get(0).get(29).asText()).isEqualTo("k29");
        assertThat(document.path("k34").asText()).isEqualTo("v34");
        assertThat(document.path("tally.test.wide").asDouble()).isEqualTo(1);
    }

    @Test
    void flush_tagValueNotAscii_keepsItAsAPropertyOnly() {
        registry.counter("tally.test.c", "entity", "Post", "title", "Café").increment();

        JsonNode document = flush().get(0);

        assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions"))
                .isEqualTo(JSON.valueToTree(List.of(List.of("entity"))));
        assertThat(document.path("title").asText()).isEqualTo("Café");
    }

    @Test
    void flush_meterWithoutTags_writesAnEmptyDimensionSet() {
        registry.counter("tally.test.plain").increment();

        JsonNode document = flush().get(0);

        assertThat(document.at("/_aws/CloudWatchMetrics/0/Dimensions"))
                .isEqualTo(JSON.valueToTree(List.of(List.of())));
    }

    @Test
    void flush_defaultNamespace_isTally() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        registry.counter("tally.test.c").increment();

        new EmfMetricsFlusher(registry, new PrintStream(out, true, StandardCharsets.UTF_8)).flush();

        assertThat(parse(out).get(0).at("/_aws/CloudWatchMetrics/0/Namespace").asText())
                .isEqualTo(EmfMetricsFlusher.DEFAULT_NAMESPACE).isEqualTo("Tally");
    }

    @Test
    void flush_customNamespace_isUsed() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        registry.counter("tally.test.c").increment();

        new EmfMetricsFlusher(registry, new PrintStream(out, true, StandardCharsets.UTF_8), "Tally/Test").flush();

        assertThat(parse(out).get(0).at("/_aws/CloudWatchMetrics/0/Namespace").asText()).isEqualTo("Tally/Test");
    }

    @Test
    void constructor_invalidNamespace_throwsIllegalArgument() {
        PrintStream out = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);

        assertThatThrownBy(() -> new EmfMetricsFlusher(registry, out, "Tally Metrics"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void flush_emptyRegistry_writesNothing() {
        assertThat(flush()).isEmpty();
    }

    private List<JsonNode> flush() {
        buffer.reset();
        flusher.flush();
        return parse(buffer);
    }

    private static List<JsonNode> parse(ByteArrayOutputStream out) {
        return out.toString(StandardCharsets.UTF_8).lines().filter(line -> !line.isBlank()).map(line -> {
            try {
                return JSON.readTree(line);
            } catch (JsonProcessingException e) {
                throw new UncheckedIOException(e);
            }
        }).toList();
    }

    /** Metric name to unit, from the document's directive. */
    private static Map<String, String> metrics(JsonNode document) {
        JsonNode metrics = document.at("/_aws/CloudWatchMetrics/0/Metrics");
        Map<String, String> units = new LinkedHashMap<>();
        StreamSupport.stream(metrics.spliterator(), false)
                .forEach(metric -> units.put(metric.path("Name").asText(), metric.path("Unit").asText()));
        assertThat(units).hasSize(metrics.size());
        return units;
    }

    private static JsonNode documentWith(List<JsonNode> documents, String metric) {
        return documents.stream().filter(document -> metrics(document).containsKey(metric)).findFirst()
                .orElseThrow(() -> new AssertionError("No document with " + metric + " in " + documents));
    }
}
