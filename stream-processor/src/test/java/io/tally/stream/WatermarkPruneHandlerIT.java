package io.tally.stream;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.ScheduledEvent;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.rebuild.WatermarkPruner;
import io.tally.stream.testing.TestLambdaContext;
import io.tally.testkit.LocalDynamoDb;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class WatermarkPruneHandlerIT {
    private static final String VALUE = "0000000000000000000000000000000000000002";

    @Test
    void scheduledEvent_prunesAndAnswersASummary() {
        DynamoDbClient dynamo = LocalDynamoDb.client();
        String table = LocalDynamoDb.createTable("prune-handler");
        Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("GLOBAL#STATS#0"),
                "sk", AttributeValue.fromS("#STATS#"));
        String gone = Watermarks.attributeName("shardId-00000009-gone");
        // Three: an item keeps two watermarks of gone shards, and past two the pruner removes them all.
        dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", key.get("pk"), "sk", key.get("sk"),
                "users", AttributeValue.fromN("7"), gone, AttributeValue.fromS("0000000000000000000000000000000000000001"),
                Watermarks.attributeName("shardId-00000007-gone"), AttributeValue.fromS(VALUE),
                Watermarks.attributeName("shardId-00000008-gone"), AttributeValue.fromS(VALUE))));

        String summary = new WatermarkPruneHandler(new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table))
                .handleRequest(new ScheduledEvent(), null);

        // The pruner's own position item is in the table too.
        assertThat(summary).startsWith("complete: scanned 2 items")
                .contains("removed 3 watermarks of gone shards from 1 items");
        assertThat(dynamo.getItem(r -> r.tableName(table).key(key).consistentRead(true)).item())
                .doesNotContainKey(gone).containsEntry("users", AttributeValue.fromN("7"));
    }

    @Test
    void scheduledEvents_aPassLongerThanARun_continuesInTheNextRun_thenWaitsForTheNextDay() {
        DynamoDbClient dynamo = LocalDynamoDb.client();
        String table = LocalDynamoDb.createTable("prune-resume");
        String gone = Watermarks.attributeName("shardId-00000009-gone");
        // About 3 pages of 1 MB: items of 30 KB, each with a gone watermark.
        String filler = "x".repeat(30_000);
        for (int i = 0; i < 100; i++) {
            String pk = "USER#u" + i;
            dynamo.putItem(r -> r.tableName(table).item(Map.of("pk", AttributeValue.fromS(pk),
                    "sk", AttributeValue.fromS("#STATS#"), "entityType", AttributeValue.fromS("UserStats"),
                    "filler", AttributeValue.fromS(filler), gone, AttributeValue.fromS("0000000000000000000000000000000000000001"),
                    Watermarks.attributeName("shardId-00000007-gone"), AttributeValue.fromS(VALUE),
                    Watermarks.attributeName("shardId-00000008-gone"), AttributeValue.fromS(VALUE))));
        }
        WatermarkPruneHandler handler = new WatermarkPruneHandler(
                new WatermarkPruner(dynamo, LocalDynamoDb.streamsClient(), table));
        // An invocation with less time left than a page needs takes one page, then stops.
        TestLambdaContext nearlyOut = new TestLambdaContext(1_000);

        String first = handler.handleRequest(new ScheduledEvent(), nearlyOut);
        String second = handler.handleRequest(new ScheduledEvent(), new TestLambdaContext(600_000));
        String third = handler.handleRequest(new ScheduledEvent(), new TestLambdaContext(600_000));

        assertThat(first).startsWith("paused: ");
        assertThat(second).startsWith("complete: ");
        assertThat(third).startsWith("not due: scanned 0 items");
        long withGone = dynamo.scanPaginator(r -> r.tableName(table)).items().stream()
                .filter(item -> item.containsKey(gone)).count();
        assertThat(withGone).isZero();
    }

    @Test
    void environmentWithSegmentsThatAreNoNumberOrOutOfRange_failsAtStartSayingSo() {
        Map<String, String> env = Map.of("TABLE_NAME", "t", "AWS_REGION", "eu-west-1", "PRUNE_SEGMENTS", "many");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WatermarkPruneHandler.fromEnvironment(env))
                .hasMessageContaining("PRUNE_SEGMENTS").hasMessageContaining("many");
        Map<String, String> none = Map.of("TABLE_NAME", "t", "AWS_REGION", "eu-west-1", "PRUNE_SEGMENTS", "0");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WatermarkPruneHandler.fromEnvironment(none))
                .hasMessageContaining("segments must be from 1 to 32");
    }

    @Test
    void environmentWithoutTable_failsAtStartWithTheVariableName() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> WatermarkPruneHandler.fromEnvironment(Map.of()))
                .hasMessageContaining("TABLE_NAME");
    }
}
