package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.TableDefinition;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;

class IndexDriftTest {
    private static final CreateTableRequest DEFINITION = TableDefinition.createTableRequest("tally");

    /** The table DynamoDB describes after creating it from the definition, with one GSI's range key renamed. */
    private static TableDescription existing(String renamedIndex, String rangeKey) {
        return TableDescription.builder()
                .tableName("tally")
                .globalSecondaryIndexes(DEFINITION.globalSecondaryIndexes().stream()
                        .map(index -> GlobalSecondaryIndexDescription.builder()
                                .indexName(index.indexName())
                                .keySchema(index.indexName().equals(renamedIndex)
                                        ? java.util.List.of(index.keySchema().get(0), KeySchemaElement.builder()
                                                .attributeName(rangeKey).keyType(KeyType.RANGE).build())
                                        : index.keySchema())
                                .build())
                        .toList())
                .localSecondaryIndexes(DEFINITION.localSecondaryIndexes().stream()
                        .map(index -> LocalSecondaryIndexDescription.builder()
                                .indexName(index.indexName()).keySchema(index.keySchema()).build())
                        .toList())
                .build();
    }

    @Test
    void tableFromTheCurrentDefinition_hasNoDrift() {
        assertThat(TableSetup.indexDrift(existing("none", "x"), DEFINITION)).isEmpty();
    }

    @Test
    void indexWithTheSameNameButOtherKeys_isReportedWithBothSchemas() {
        // A data directory from before the status index ranged by statusPostedAt.
        assertThat(TableSetup.indexDrift(existing("PostsByStatus", "postedAt"), DEFINITION)).hasValueSatisfying(message ->
                assertThat(message).contains("PostsByStatus(statusShard HASH, postedAt RANGE)")
                        .contains("PostsByStatus(statusShard HASH, statusPostedAt RANGE)")
                        .contains("delete the data directory"));
    }
}
