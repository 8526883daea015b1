package io.tally.stream.scale;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.TableDefinition;
import io.tally.testkit.LocalDynamoDbServer;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/** The simulations' write units against DynamoDB's prices: a write of a small item one unit, a transaction's two. */
@Tag("scale")
class WriteUnitsIT {
    private static TransactWriteItem put(Map<String, AttributeValue> item) {
        return TransactWriteItem.builder().put(Put.builder().tableName("units").item(item).build()).build();
    }

    private static TransactWriteItem delete(Map<String, AttributeValue> key) {
        return TransactWriteItem.builder().delete(Delete.builder().tableName("units").key(key).build()).build();
    }

    @Test
    void smallWrite_isOneUnit_andEachItemOfATransaction_two() {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            WriteUnits units = new WriteUnits();
            DynamoDbClient counted = server.client(units);
            server.client().createTable(TableDefinition.createTableRequest("units"));
            Map<String, AttributeValue> a = Map.of("pk", AttributeValue.fromS("A"), "sk", AttributeValue.fromS("a"));
            Map<String, AttributeValue> b = Map.of("pk", AttributeValue.fromS("B"), "sk", AttributeValue.fromS("b"));

            counted.putItem(r -> r.tableName("units").item(a));
            assertThat(units.total()).isEqualTo(1.0);
            // DynamoDB Local reports two units a transaction, whatever its items, where DynamoDB charges two an item.
            assertThat(server.client().transactWriteItems(r -> r.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                    .transactItems(put(b), put(Map.of("pk", AttributeValue.fromS("C"), "sk", AttributeValue.fromS("c"))),
                            delete(a))).consumedCapacity().get(0).capacityUnits()).isEqualTo(2.0);

            counted.transactWriteItems(r -> r.transactItems(put(a), delete(b)));
            assertThat(units.total()).isEqualTo(5.0);
            assertThat(units.byKind()).containsEntry("fold", 4.0);
        }
    }
}
