package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * Against DynamoDB Local embedded directly: the test kit's LocalDynamoDb depends on core, so core's own tests cannot
 * use it.
 */
class TableDefinitionIT {
    private static AmazonDynamoDBLocal dynamoDbLocal;

    @BeforeAll
    static void start() {
        // true disables telemetry: no network calls, no dynamodb-local-metadata.json in the working directory.
        dynamoDbLocal = DynamoDBEmbedded.create(true);
    }

    @AfterAll
    static void stop() {
        dynamoDbLocal.shutdown();
    }

    @Test
    void createTable_onDynamoDbLocal_hasKeysIndexesAndStream() {
        DynamoDbClient client = dynamoDbLocal.dynamoDbClient();
        String name = "definition";
        client.createTable(TableDefinition.createTableRequest(name));
        TableDescription table = client.describeTable(r -> r.tableName(name)).table();
        assertThat(table.keySchema()).extracting(k -> k.attributeName()).containsExactly("pk", "sk");
        assertThat(table.globalSecondaryIndexes()).extracting(i -> i.indexName()).containsExactlyInAnyOrder("CycleSelector", "PostsByStatus", "ReverseLookup",
                "FavouritesByType", "LinksByTag", "LinksByTagType", "FavouriteSearch");
        assertThat(table.globalSecondaryIndexes().stream().filter(i -> i.indexName().equals("CycleSelector")).findFirst().orElseThrow().keySchema()).extracting(k -> k.attributeName())
                .containsExactly("selector", "data");
        assertThat(table.globalSecondaryIndexes().stream().filter(i -> i.indexName().equals("ReverseLookup")).findFirst().orElseThrow().keySchema()).extracting(k -> k.attributeName())
                .containsExactly("lookupKey", "pk");
        assertThat(table.localSecondaryIndexes()).extracting(i -> i.indexName()).containsExactlyInAnyOrder("PostsByTime", "TagsByName",
                "TagsByCreation", "TagsByAccess");
        assertThat(table.streamSpecification().streamEnabled()).isTrue();
        assertThat(table.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        assertThat(table.latestStreamArn()).isNotBlank();
    }
}
