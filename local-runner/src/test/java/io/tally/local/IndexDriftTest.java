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

    @Test
    void tableWithoutTheTagLsis_cannotBeMigrated_theMessageSaysWhatToDo() {
        TableDescription old = existing("none", "x").toBuilder()
                .localSecondaryIndexes(existing("none", "x").localSecondaryIndexes().subList(0, 1)).build();
        assertThat(TableSetup.localIndexDrift(existing("none", "x"), DEFINITION)).isEmpty();
        assertThat(TableSetup.localIndexDrift(old, DEFINITION)).hasValueSatisfying(message ->
                assertThat(message).contains("TagsByName").contains("can only be created with its table")
                        .contains("delete the data directory"));
    }

    @Test
    void tableWithoutTheFavouritesGsis_getsThemAdded() {
        TableDescription old = existing("none", "x").toBuilder()
                .globalSecondaryIndexes(existing("none", "x").globalSecondaryIndexes().subList(0, 3)).build();
        var missing = TableSetup.missingGlobalIndexes(old, DEFINITION);
        assertThat(missing).extracting(index -> index.indexName())
                .containsExactly("FavouritesByType", "LinksByTag", "LinksByTagType", "FavouriteSearch");
        var update = TableSetup.addIndex(DEFINITION, missing.get(3));
        assertThat(update.attributeDefinitions()).extracting(a -> a.attributeName())
                .containsExactlyInAnyOrder("searchKey", "clippedKey");
        assertThat(update.globalSecondaryIndexUpdates().get(0).create().projection().nonKeyAttributes())
                .contains("title", "words");
        assertThat(TableSetup.missingGlobalIndexes(existing("none", "x"), DEFINITION)).isEmpty();
    }
}
