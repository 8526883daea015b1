package io.tally.core;

import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** The table: keys, indexes and stream. See {@code docs/table-design.md}. */
public final class TableDefinition {
    private TableDefinition() {
    }

    public static CreateTableRequest createTableRequest(String tableName) {
        return CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attribute(TableSchema.PK, ScalarAttributeType.S),
                        attribute(TableSchema.SK, ScalarAttributeType.S),
                        attribute(TableSchema.SELECTOR, ScalarAttributeType.S),
                        attribute(TableSchema.DATA, ScalarAttributeType.N),
                        attribute(TableSchema.POSTED_AT, ScalarAttributeType.S),
                        attribute(TableSchema.STATUS_SHARD, ScalarAttributeType.S))
                .keySchema(hash(TableSchema.PK), range(TableSchema.SK))
                .globalSecondaryIndexes(
                        GlobalSecondaryIndex.builder()
                                .indexName(TableSchema.CYCLE_SELECTOR_INDEX)
                                .keySchema(hash(TableSchema.SELECTOR), range(TableSchema.DATA))
                                .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                                .build(),
                        GlobalSecondaryIndex.builder()
                                .indexName(TableSchema.POSTS_BY_STATUS_INDEX)
                                .keySchema(hash(TableSchema.STATUS_SHARD), range(TableSchema.POSTED_AT))
                                .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                                .build())
                .localSecondaryIndexes(LocalSecondaryIndex.builder()
                        .indexName(TableSchema.POSTS_BY_TIME_INDEX)
                        .keySchema(hash(TableSchema.PK), range(TableSchema.POSTED_AT))
                        .projection(Projection.builder().projectionType(ProjectionType.ALL).build())
                        .build())
                .streamSpecification(StreamSpecification.builder()
                        .streamEnabled(true)
                        .streamViewType(StreamViewType.NEW_AND_OLD_IMAGES)
                        .build())
                .build();
    }

    private static AttributeDefinition attribute(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder().attributeName(name).attributeType(type).build();
    }

    private static KeySchemaElement hash(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.HASH).build();
    }

    private static KeySchemaElement range(String name) {
        return KeySchemaElement.builder().attributeName(name).keyType(KeyType.RANGE).build();
    }
}
