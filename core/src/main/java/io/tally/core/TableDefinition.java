package io.tally.core;

import io.tally.core.template.DeploymentTemplate;
import java.util.List;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

/**
 * The table: keys, indexes and stream, as the deployment template ({@code infra/template.yaml}, resource
 * {@value #LOGICAL_ID}) declares them. The template is the one definition; this class turns it into the
 * {@code CreateTable} request the local runtime and the tests send to DynamoDB Local. See
 * {@code docs/table-design.md}.
 *
 * <p>Properties that DynamoDB Local does not support or that only matter on AWS (the table name, TTL, point-in-time
 * recovery, deletion protection, tags) are not part of the request.
 */
public final class TableDefinition {
    /** The table's logical id in the template. */
    public static final String LOGICAL_ID = "Table";
    static final String RESOURCE_TYPE = "AWS::DynamoDB::Table";

    private static final CreateTableRequest BUNDLED = fromTemplate(DeploymentTemplate.bundled(), "unnamed");

    private TableDefinition() {
    }

    /** The request that creates the table under the given name, from the template this build carries. */
    public static CreateTableRequest createTableRequest(String tableName) {
        return BUNDLED.toBuilder().tableName(tableName).build();
    }

    /** The request that creates the table under the given name, from the given template. */
    public static CreateTableRequest fromTemplate(DeploymentTemplate template, String tableName) {
        DeploymentTemplate.Node table = template.resourceProperties(LOGICAL_ID, RESOURCE_TYPE);
        CreateTableRequest.Builder request = CreateTableRequest.builder()
                .tableName(tableName)
                .billingMode(BillingMode.fromValue(table.text("BillingMode")))
                .attributeDefinitions(table.list("AttributeDefinitions").stream()
                        .map(a -> AttributeDefinition.builder()
                                .attributeName(a.text("AttributeName"))
                                .attributeType(a.text("AttributeType"))
                                .build())
                        .toList())
                .keySchema(keySchema(table));
        List<GlobalSecondaryIndex> globals = table.listOrEmpty("GlobalSecondaryIndexes").stream()
                .map(index -> GlobalSecondaryIndex.builder()
                        .indexName(index.text("IndexName"))
                        .keySchema(keySchema(index))
                        .projection(projection(index.get("Projection")))
                        .build())
                .toList();
        if (!globals.isEmpty()) {
            request.globalSecondaryIndexes(globals);
        }
        List<LocalSecondaryIndex> locals = table.listOrEmpty("LocalSecondaryIndexes").stream()
                .map(index -> LocalSecondaryIndex.builder()
                        .indexName(index.text("IndexName"))
                        .keySchema(keySchema(index))
                        .projection(projection(index.get("Projection")))
                        .build())
                .toList();
        if (!locals.isEmpty()) {
            request.localSecondaryIndexes(locals);
        }
        if (table.has("StreamSpecification")) {
            request.streamSpecification(StreamSpecification.builder()
                    .streamEnabled(true)
                    .streamViewType(table.get("StreamSpecification").text("StreamViewType"))
                    .build());
        }
        return request.build();
    }

    private static List<KeySchemaElement> keySchema(DeploymentTemplate.Node owner) {
        return owner.list("KeySchema").stream()
                .map(k -> KeySchemaElement.builder()
                        .attributeName(k.text("AttributeName"))
                        .keyType(k.text("KeyType"))
                        .build())
                .toList();
    }

    private static Projection projection(DeploymentTemplate.Node projection) {
        Projection.Builder builder = Projection.builder().projectionType(projection.text("ProjectionType"));
        if (projection.has("NonKeyAttributes")) {
            builder.nonKeyAttributes(projection.texts("NonKeyAttributes"));
        }
        return builder.build();
    }
}
