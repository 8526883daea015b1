package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.stream.engine.Engine;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StreamWiringTest {

    @Test
    void completeEnvironment_buildsAnEngineWithoutCallingAnyService() {
        try (Engine engine = StreamWiring.fromEnvironment(Map.of(
                "TABLE_NAME", "tally", "AWS_REGION", "eu-west-1", "EVENT_BUS_NAME", "tally-events",
                "DYNAMODB_ENDPOINT", "http://127.0.0.1:8000"))) {
            assertThat(engine).isNotNull();
        }
    }

    @Test
    void missingTableName_isReportedByName() {
        assertThatThrownBy(() -> StreamWiring.fromEnvironment(Map.of(
                "AWS_REGION", "eu-west-1", "EVENT_BUS_NAME", "tally-events")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TABLE_NAME");
    }
}
