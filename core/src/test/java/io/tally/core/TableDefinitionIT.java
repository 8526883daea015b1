package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.testing.LocalDynamoDb;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

class TableDefinitionIT {
    @Test
    void createTable_onDynamoDbLocal_hasKeysIndexesAndStream() {
        String name = LocalDynamoDb.createTable("definition");
        TableDescription table = LocalDynamoDb.client().describeTable(r -> r.tableName(name)).table();
        assertThat(table.keySchema()).extracting(k -> k.attributeName()).containsExactly("pk", "sk");
        assertThat(table.globalSecondaryIndexes()).extracting(i -> i.indexName()).containsExactlyInAnyOrder("CycleSelector", "PostsByStatus");
        assertThat(table.globalSecondaryIndexes().stream().filter(i -> i.indexName().equals("CycleSelector")).findFirst().orElseThrow().keySchema()).extracting(k -> k.attributeName())
                .containsExactly("selector", "data");
        assertThat(table.localSecondaryIndexes()).extracting(i -> i.indexName()).containsExactly("PostsByTime");
        assertThat(table.streamSpecification().streamEnabled()).isTrue();
        assertThat(table.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        assertThat(table.latestStreamArn()).isNotBlank();
    }
}
