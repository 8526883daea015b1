package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.rebuild.WatermarkPruner;
import io.tally.testkit.LocalDynamoDb;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class WatermarkPruneHandlerIT {
    @Test
    void scheduledEvent_prunesAndAnswersASummary() {
        DynamoDbClient dynamo = LocalDynamoDb.client();
        String table = LocalDynamoDb.createTable("prune-handler");
        Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("GLOBAL#STATS#0"),
                "sk", AttributeValue.fromS("#STATS#"));
        String gone = Watermarks.attributeName("shardId-00000009-gone");
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", key.get("pk"), "sk", key.get("sk"),
                "users", AttributeValue.fromN("7"), gone, AttributeValue.fromS("0000000000000000000000000000000000000001"))));

        String summary = new WatermarkPruneHandler(new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table))
                .handleRequest(new ScheduledEvent(), null);

        assertThat(summary).contains("scanned 1 items").contains("removed 1 watermarks of gone shards from 1 items");
        assertThat(dynamo.getItem(r -> r.tableName(table).key(key).consistentRead(true)).item())
                .doesNotContainKey(gone).containsEntry("users", AttributeValue.fromN("7"));
    }

    @Test
    void environmentWithoutTable_failsAtStartWithTheVariableName() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WatermarkPruneHandler.fromEnvironment(Map.of()))
                .hasMessageContaining("TABLE_NAME");
    }
}
