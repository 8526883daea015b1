package io.tally.bench.aws;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.TableDefinition;
import io.tally.testkit.LocalDynamoDbServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

class AwsLatencyInterceptorIT {
    /** Every PutItem takes exactly 30 ms in this model (p50 = p99), every other call 1 ms. */
    private static final LatencyModel FIXED = new LatencyModel(
            List.of(new LatencyModel.Operation("DynamoDB", "PutItem", 30, 30, "test")),
            new LatencyModel.Operation("any", "other", 1, 1, "test"));

    @Test
    void everyCallOfTheClientTakesAtLeastTheModelsLatencyAndIsCountedPerServiceAndOperation() {
        CallTimes times = new CallTimes();
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start();
             DynamoDbClient admin = server.client();
             DynamoDbClient client = server.client(new AwsLatencyInterceptor(FIXED, times, 1))) {
            admin.createTable(TableDefinition.createTableRequest("latency"));
            long started = System.nanoTime();
            for (int i = 0; i < 5; i++) {
                client.putItem(r -> r.tableName("latency").item(Map.of("pk", AttributeValue.fromS("p" + System.nanoTime()),
                        "sk", AttributeValue.fromS("s"))));
            }
            double elapsedMillis = (System.nanoTime() - started) / 1e6;
            client.getItem(r -> r.tableName("latency").key(Map.of("pk", AttributeValue.fromS("x"),
                    "sk", AttributeValue.fromS("s"))));

            CallTimes.Snapshot snapshot = times.snapshot(System.nanoTime());
            CallTimes.OperationFigures puts = snapshot.operations().get("DynamoDB/PutItem");
            assertThat(puts.calls()).isEqualTo(5);
            assertThat(puts.modelledMillis()).isCloseTo(150, org.assertj.core.data.Offset.offset(0.5));
            assertThat(elapsedMillis).isGreaterThanOrEqualTo(150);
            assertThat(snapshot.operations().get("DynamoDB/GetItem").calls()).isEqualTo(1);
            // The five puts and the get, one after another: the service's time covers at least their latencies.
            assertThat(snapshot.serviceMillis("DynamoDB")).isGreaterThanOrEqualTo(151);
            assertThat(snapshot.serviceMillis(CallTimes.ANY)).isEqualTo(snapshot.serviceMillis("DynamoDB"));
            assertThat(snapshot.serviceMillis("EventBridge")).isZero();
        }
    }
}
