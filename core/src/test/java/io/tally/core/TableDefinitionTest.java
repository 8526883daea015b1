package io.tally.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.template.DeploymentTemplate;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

class TableDefinitionTest {
    private static String templateText() throws Exception {
        return Files.readString(Path.of("..", "infra", "template.yaml"));
    }

    private static DeploymentTemplate template(String yaml) {
        try {
            Path file = Files.createTempFile("template", ".yaml");
            Files.writeString(file, yaml, StandardCharsets.UTF_8);
            return DeploymentTemplate.read(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The deployed table, written down apart from the domains' declarations it is generated from: a change of a
     * declared index that would change a deployed table fails here.
     */
    @Test
    void createTableRequest_fromTheTemplate_hasTheSchemaTheCodeExpects() {
        CreateTableRequest request = TableDefinition.createTableRequest("t1");

        assertThat(request.tableName()).isEqualTo("t1");
        assertThat(request.billingMode()).isEqualTo(BillingMode.PAY_PER_REQUEST);
        assertThat(request.keySchema()).containsExactly(
                key(TableSchema.PK, KeyType.HASH), key(TableSchema.SK, KeyType.RANGE));
        assertThat(request.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::indexName)
                .containsExactly(TableSchema.CYCLE_SELECTOR_INDEX, "PostsByStatus",
                        "ReverseLookup", "FavouritesByType",
                        "LinksByTag", "LinksByTagType",
                        "FavouriteSearch");
        GlobalSecondaryIndex selector = request.globalSecondaryIndexes().get(0);
        assertThat(selector.keySchema()).containsExactly(
                key(TableSchema.SELECTOR, KeyType.HASH), key(TableSchema.DATA, KeyType.RANGE));
        // The two indexes of derived items project what their lists render, never the engine's bookkeeping (which
        // every derived write changes) nor the post's comments counter (which every comment changes).
        assertThat(selector.projection().projectionType()).isEqualTo(ProjectionType.INCLUDE);
        assertThat(selector.projection().nonKeyAttributes())
                .containsExactly("entityType", "itemId", "title", "score", "songId", "month");
        assertThat(request.globalSecondaryIndexes().get(1).keySchema()).containsExactly(
                key("statusShard", KeyType.HASH), key("statusPostedAt", KeyType.RANGE));
        assertThat(request.globalSecondaryIndexes().get(1).projection().projectionType())
                .isEqualTo(ProjectionType.INCLUDE);
        assertThat(request.globalSecondaryIndexes().get(1).projection().nonKeyAttributes())
                .containsExactly("entityType", "postId", "userId", "title", "status", "createdAt", "updatedAt")
                .doesNotContain("comments", TableSchema.SOURCE_REVISION);
        assertThat(request.globalSecondaryIndexes().get(2).keySchema()).containsExactly(
                key("lookupKey", KeyType.HASH), key(TableSchema.PK, KeyType.RANGE));
        for (int i = 3; i < 7; i++) {
            assertThat(request.globalSecondaryIndexes().get(i).keySchema().get(1))
                    .isEqualTo(key("clippedKey", KeyType.RANGE));
        }
        assertThat(request.globalSecondaryIndexes().get(6).keySchema().get(0))
                .isEqualTo(key("searchKey", KeyType.HASH));
        assertThat(request.globalSecondaryIndexes().get(6).projection().projectionType())
                .isEqualTo(ProjectionType.INCLUDE);
        assertThat(request.localSecondaryIndexes()).extracting(lsi -> lsi.indexName() + ":"
                        + lsi.keySchema().get(0).attributeName() + "," + lsi.keySchema().get(1).attributeName())
                .containsExactly("PostsByTime:pk,postedAt", "TagsByName:pk,tagNameKey",
                        "TagsByCreation:pk,tagCreatedKey", "TagsByAccess:pk,tagAccessedKey");
        assertThat(request.attributeDefinitions()).extracting(a -> a.attributeName() + ":" + a.attributeTypeAsString())
                .containsExactlyInAnyOrder("pk:S", "sk:S", "selector:S", "data:N", "postedAt:S", "statusShard:S",
                        "statusPostedAt:S", "lookupKey:S", "tagNameKey:S", "tagCreatedKey:S", "tagAccessedKey:S",
                        "clippedKey:S", "favTypeKey:S", "linkTagKey:S", "linkTagTypeKey:S", "searchKey:S");
        assertThat(request.streamSpecification().streamEnabled()).isTrue();
        assertThat(request.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
    }

    @Test
    void fromTemplate_followsAnEditOfTheTemplate() throws Exception {
        // Proves the request is read from the template, not written down a second time.
        String edited = templateText().replace("IndexName: PostsByStatus", "IndexName: PostsByStatusV2");
        CreateTableRequest request = TableDefinition.fromTemplate(template(edited), "t2");
        assertThat(request.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::indexName)
                .startsWith(TableSchema.CYCLE_SELECTOR_INDEX, "PostsByStatusV2", "ReverseLookup");
    }

    @Test
    void fromTemplate_withAParameterWhereTheLocalRuntimeNeedsALiteral_namesTheProperty() throws Exception {
        String edited = templateText().replace("BillingMode: PAY_PER_REQUEST", "BillingMode: !Ref Billing");
        assertThatThrownBy(() -> TableDefinition.fromTemplate(template(edited), "t3"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Resources.Table.Properties.BillingMode");
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }
}
