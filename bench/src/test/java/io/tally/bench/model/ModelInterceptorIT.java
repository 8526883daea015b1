package io.tally.bench.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.TableDefinition;
import io.tally.testkit.LocalDynamoDbServer;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.retry.RetryUtils;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.eventbridge.model.EventBridgeException;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;

/**
 * The model's interceptor reaches every client through the SDK's global interceptors (no client here adds it), and
 * its throttle behaves as AWS's: a throttled write never reaches the table, the SDK retries it, and nothing is lost
 * or doubled.
 */
class ModelInterceptorIT {
    @AfterEach
    void noModel() {
        ModelState.install(null);
    }

    @Test
    void writesPastAPartitionsUnitsAreThrottledRetriedByTheSdkAndAppliedOnce() {
        // Time at its own pace; 20 write units a second on a partition key, a second's worth saved up.
        ModelState model = new ModelState(1, 3, 20, 0);
        ModelState.install(model);
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start(); DynamoDbClient client = server.client()) {
            client.createTable(TableDefinition.createTableRequest("throttled"));
            Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("HOT#1"), "sk", AttributeValue.fromS("s"));
            for (int i = 0; i < 40; i++) {
                client.updateItem(r -> r.tableName("throttled").key(key).updateExpression("ADD n :one")
                        .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"))));
            }
            ModelState.install(null);
            String n = client.getItem(r -> r.tableName("throttled").key(key)).item().get("n").n();
            assertThat(n).isEqualTo("40");
        }
        assertThat(model.throttledWrites.get()).isPositive();
        // Every applied update reported its unit; the throttled attempts none (they never reached the table).
        assertThat(model.writeUnits.sum()).isEqualTo(40);
        assertThat(model.writesWithoutCapacity.get()).isZero();
        assertThat(model.calls.get()).isGreaterThanOrEqualTo(40 + model.throttledWrites.get() + 1);
    }

    @Test
    void putEventsPastTheQuotaAreRefusedAsTheSdkRecognisesAThrottle() {
        ModelState model = new ModelState(1, 3, 1_000, 2);
        PutEventsRequest request = PutEventsRequest.builder().build();
        assertThat(ModelInterceptor.throttle(model, request)).isNull();
        assertThat(ModelInterceptor.throttle(model, request)).isNull();
        RuntimeException third = ModelInterceptor.throttle(model, request);
        assertThat(third).isInstanceOf(EventBridgeException.class);
        assertThat(RetryUtils.isThrottlingException((EventBridgeException) third)).isTrue();
        assertThat(model.throttledPutEvents.get()).isEqualTo(1);
    }

    @Test
    void withoutTheModelTheInterceptorChangesNothing() {
        ModelState.install(null);
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start(); DynamoDbClient client = server.client()) {
            client.createTable(TableDefinition.createTableRequest("plain"));
            Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("A"), "sk", AttributeValue.fromS("s"));
            // The request asks for no consumed capacity, and the answer carries none: the interceptor added nothing.
            assertThat(client.updateItem(r -> r.tableName("plain").key(key).updateExpression("ADD n :one")
                    .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1")))).consumedCapacity()).isNull();
        }
    }
}
