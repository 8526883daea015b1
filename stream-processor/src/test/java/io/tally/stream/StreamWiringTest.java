package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.ShardSetting;
import io.tally.core.ShardSettings;
import io.tally.core.domain.DomainRegistry;
import io.tally.domains.catalogue.CatalogueKeys;
import io.tally.stream.engine.Engine;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.regions.Region;

class StreamWiringTest {

    @Test
    void completeEnvironment_buildsAnEngineWithoutCallingAnyService() {
        StreamWiring.Processor processor = StreamWiring.fromEnvironment(Map.of(
                "TABLE_NAME", "tally", "AWS_REGION", "eu-west-1", "EVENT_BUS_NAME", "tally-events",
                "DYNAMODB_ENDPOINT", "http://127.0.0.1:8000"));
        try (Engine engine = processor.engine()) {
            assertThat(engine).isNotNull();
            assertThat(processor.afterInvocation()).isNotNull();
        }
    }

    @Test
    void stage_isATagOfEveryMeter_soEveryMetricHasAStageDimension() {
        StreamWiring.Processor processor = StreamWiring.fromEnvironment(Map.of(
                "TABLE_NAME", "tally", "AWS_REGION", "eu-west-1", "EVENT_BUS_NAME", "tally-events",
                "DYNAMODB_ENDPOINT", "http://127.0.0.1:8000", "STAGE", "prod"));
        try (Engine engine = processor.engine()) {
            var registry = engine.metrics().registry();
            registry.counter(io.tally.stream.engine.StreamMetrics.POISON).increment();
            assertThat(registry.getMeters()).isNotEmpty().allSatisfy(meter ->
                    assertThat(meter.getId().getTag("Stage")).as(meter.getId().getName()).isEqualTo("prod"));
        }
    }

    @Test
    void eventBridgeEndpoint_overridesTheClientsEndpointOnlyWhenSet() {
        try (var local = StreamWiring.eventBridge(Map.of("EVENTBRIDGE_ENDPOINT", "http://127.0.0.1:4566"),
                Region.EU_WEST_1);
             var aws = StreamWiring.eventBridge(Map.of("EVENTBRIDGE_ENDPOINT", " "), Region.EU_WEST_1)) {
            assertThat(local.serviceClientConfiguration().endpointOverride())
                    .contains(URI.create("http://127.0.0.1:4566"));
            assertThat(aws.serviceClientConfiguration().endpointOverride()).isEmpty();
        }
        StreamWiring.Processor processor = StreamWiring.fromEnvironment(Map.of(
                "TABLE_NAME", "tally", "AWS_REGION", "eu-west-1", "EVENT_BUS_NAME", "tally-events",
                "EVENTBRIDGE_ENDPOINT", "http://127.0.0.1:4566"));
        processor.engine().close();
    }

    @Test
    void missingTableName_isReportedByName() {
        assertThatThrownBy(() -> StreamWiring.fromEnvironment(Map.of(
                "AWS_REGION", "eu-west-1", "EVENT_BUS_NAME", "tally-events")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TABLE_NAME");
    }

    @Test
    void publishConcurrency_isSixteenUnlessTheVariableSaysOneToFifty() {
        assertThat(StreamWiring.publishConcurrency(Map.of())).isEqualTo(16);
        assertThat(StreamWiring.publishConcurrency(Map.of("EVENT_PUBLISH_CONCURRENCY", " "))).isEqualTo(16);
        assertThat(StreamWiring.publishConcurrency(Map.of("EVENT_PUBLISH_CONCURRENCY", "1"))).isEqualTo(1);
        assertThat(StreamWiring.publishConcurrency(Map.of("EVENT_PUBLISH_CONCURRENCY", " 8 "))).isEqualTo(8);
        for (String invalid : new String[] {"0", "51", "-2", "eight", "2.5"}) {
            assertThatThrownBy(() -> StreamWiring.publishConcurrency(Map.of("EVENT_PUBLISH_CONCURRENCY", invalid)))
                    .as(invalid).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("EVENT_PUBLISH_CONCURRENCY").hasMessageContaining(invalid);
        }
    }

    @Test
    void writeConcurrency_isSixteenUnlessTheVariableSaysOneToSixtyFour() {
        assertThat(StreamWiring.writeConcurrency(Map.of())).isEqualTo(16);
        assertThat(StreamWiring.writeConcurrency(Map.of("DERIVED_WRITE_CONCURRENCY", ""))).isEqualTo(16);
        assertThat(StreamWiring.writeConcurrency(Map.of("DERIVED_WRITE_CONCURRENCY", "1"))).isEqualTo(1);
        assertThat(StreamWiring.writeConcurrency(Map.of("DERIVED_WRITE_CONCURRENCY", " 64 "))).isEqualTo(64);
        for (String invalid : new String[] {"0", "65", "-1", "many", "1e2"}) {
            assertThatThrownBy(() -> StreamWiring.writeConcurrency(Map.of("DERIVED_WRITE_CONCURRENCY", invalid)))
                    .as(invalid).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("DERIVED_WRITE_CONCURRENCY").hasMessageContaining(invalid);
        }
        // Every derived write in flight, and the cursor's call, keeps its connection between waves.
        assertThat(StreamWiring.KEEP_ALIVE_CONNECTIONS).isGreaterThan(StreamWiring.MAX_WRITE_CONCURRENCY);
    }

    @Test
    void invalidPublishConcurrency_stopsTheFunctionAtStart() {
        assertThatThrownBy(() -> StreamWiring.fromEnvironment(Map.of(
                "TABLE_NAME", "tally", "AWS_REGION", "eu-west-1", "EVENT_BUS_NAME", "tally-events",
                "EVENT_PUBLISH_CONCURRENCY", "100")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("EVENT_PUBLISH_CONCURRENCY");
    }

    private static final List<ShardSetting> DECLARED = DomainRegistry.load().shardSettings();

    @Test
    void shardCounts_comeFromTheVariablesTheReadSideReads() {
        assertThat(ShardSettings.fromEnvironment(Map.of("SELECTOR_SHARDS", "8", "GLOBAL_SHARDS", "2"), DECLARED))
                .isEqualTo(ShardSettings.DEFAULTS.with(CatalogueKeys.SELECTOR_SHARDS, 8).with(ShardSettings.GLOBAL, 2));
        assertThatThrownBy(() -> ShardSettings.fromEnvironment(Map.of("STATUS_SHARDS", "0"), DECLARED))
                .hasMessageContaining("STATUS_SHARDS");
        assertThatThrownBy(() -> ShardSettings.fromEnvironment(Map.of("STATUS_SHARDS", "four"), DECLARED))
                .hasMessageContaining("STATUS_SHARDS");
    }

    @Test
    void keepConnectionsAlive_raisesTheJdksIdleConnectionsPerHostUnlessTheyAreSet() {
        String before = System.getProperty(StreamWiring.MAX_CONNECTIONS_PROPERTY);
        try {
            System.clearProperty(StreamWiring.MAX_CONNECTIONS_PROPERTY);
            StreamWiring.keepConnectionsAlive();
            assertThat(System.getProperty(StreamWiring.MAX_CONNECTIONS_PROPERTY)).isEqualTo("72");

            System.setProperty(StreamWiring.MAX_CONNECTIONS_PROPERTY, "10");
            StreamWiring.keepConnectionsAlive();
            assertThat(System.getProperty(StreamWiring.MAX_CONNECTIONS_PROPERTY)).isEqualTo("10");
        } finally {
            if (before == null) {
                System.clearProperty(StreamWiring.MAX_CONNECTIONS_PROPERTY);
            } else {
                System.setProperty(StreamWiring.MAX_CONNECTIONS_PROPERTY, before);
            }
        }
    }
}
