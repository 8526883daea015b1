package io.tally.core.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.EntityType;
import io.tally.core.TableSchema;
import io.tally.core.users.UsersDomain;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/** The domains' indexes gathered by the registry, each clash refused naming the domain, and the table they make. */
class TableIndexesTest {
    private static DeclaredDomain domain(String name, Declaration declaration) {
        return new DeclaredDomain(declaration) {
        };
    }

    private static TableIndex.Key key(String attribute) {
        return new TableIndex.Key(attribute, ScalarAttributeType.S);
    }

    private static Declaration declared(String name) {
        return Declaration.of(name).entityTypes(EntityType.base("TableIndexes" + name));
    }

    @Test
    void indexes_areEveryDomainsInRegistryOrder_withTheAttributesOthersAddToAProjection() {
        DomainRegistry registry = DomainRegistry.of(new UsersDomain(),
                domain("shelf", declared("shelf").indexes(TableIndex.local("ByTitle", "titleKey"),
                        TableIndex.global("ByShelf", "shelfKey", "addedKey").including("title"))
                        .projects(TableSchema.CYCLE_SELECTOR_INDEX, "shelfId", "title")),
                domain("lamp", declared("lamp").projects(TableSchema.CYCLE_SELECTOR_INDEX, "title", "watts")
                        .projects("ByShelf", "watts")));

        assertThat(registry.indexes()).extracting(TableIndex::name)
                .containsExactly(TableSchema.CYCLE_SELECTOR_INDEX, "ByTitle", "ByShelf");
        assertThat(registry.indexes().get(0).includes())
                .containsExactly(TableSchema.ENTITY_TYPE, "shelfId", "title", "watts");
        assertThat(registry.indexes().get(2).includes()).containsExactly("title", "watts");
        assertThat(TableIndexes.keyAttributes(registry.indexes())).extracting(key -> key.attribute() + ":"
                + key.type()).containsExactly("pk:S", "sk:S", "selector:S", "data:N", "titleKey:S", "shelfKey:S",
                "addedKey:S");
    }

    @Test
    void createTableRequest_isTheTableWithTheDeclaredIndexes() {
        DomainRegistry registry = DomainRegistry.of(new UsersDomain(), domain("shelf", declared("shelf")
                .indexes(TableIndex.local("ByTitle", "titleKey"), TableIndex.global("ByShelf", "shelfKey", "pk"))));

        CreateTableRequest request = TableIndexes.createTableRequest(registry, "t");

        assertThat(request.tableName()).isEqualTo("t");
        assertThat(request.keySchema()).extracting(k -> k.attributeName() + ":" + k.keyType())
                .containsExactly("pk:HASH", "sk:RANGE");
        assertThat(request.attributeDefinitions()).extracting(a -> a.attributeName() + ":" + a.attributeType())
                .containsExactly("pk:S", "sk:S", "selector:S", "data:N", "titleKey:S", "shelfKey:S");
        assertThat(request.globalSecondaryIndexes()).extracting(GlobalSecondaryIndex::indexName)
                .containsExactly(TableSchema.CYCLE_SELECTOR_INDEX, "ByShelf");
        assertThat(request.globalSecondaryIndexes().get(0).projection().nonKeyAttributes())
                .containsExactly(TableSchema.ENTITY_TYPE);
        assertThat(request.globalSecondaryIndexes().get(1).projection().projectionType()).isEqualTo(ProjectionType.ALL);
        assertThat(request.localSecondaryIndexes()).singleElement().satisfies(index -> {
            assertThat(index.indexName()).isEqualTo("ByTitle");
            assertThat(index.keySchema()).extracting(k -> k.attributeName() + ":" + k.keyType())
                    .containsExactly("pk:HASH", "titleKey:RANGE");
        });
        assertThat(request.streamSpecification().streamViewType()).isEqualTo(StreamViewType.NEW_AND_OLD_IMAGES);
        assertThat(TableIndexes.createTableRequest(DomainRegistry.of(domain("bare", declared("bare"))), "t")
                .hasGlobalSecondaryIndexes()).isFalse();
    }

    @Test
    void anIndexDeclaredTwice_isRefusedNamingTheDomain() {
        assertThatThrownBy(() -> DomainRegistry.of(new UsersDomain(), domain("shelf", declared("shelf")
                .indexes(TableIndex.global(TableSchema.CYCLE_SELECTOR_INDEX, "a", "b")))))
                .hasMessageContaining("domain 'shelf'").hasMessageContaining("index CycleSelector is declared twice");
    }

    @Test
    void attributesAddedToAnIndexNoDomainDeclares_orOneOfKeysOnly_areRefused() {
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelf", declared("shelf").projects("Nowhere", "x"))))
                .hasMessageContaining("domain 'shelf'").hasMessageContaining("index Nowhere, which no domain declares");
        TableIndex keysOnly = new TableIndex("Keys", false, key("k"), key("r"), ProjectionType.KEYS_ONLY, List.of(),
                "");
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelf", declared("shelf").indexes(keysOnly)),
                domain("lamp", declared("lamp").projects("Keys", "x"))))
                .hasMessageContaining("domain 'lamp'").hasMessageContaining("projects its keys only");
    }

    @Test
    void aKeyAttributeOfTwoTypes_isRefused() {
        assertThatThrownBy(() -> DomainRegistry.of(new UsersDomain(), domain("shelf", declared("shelf")
                .indexes(TableIndex.global("ByData", "shelfKey", TableSchema.DATA)))))
                .hasMessageContaining("domain 'shelf'").hasMessageContaining("keys 'data' as S, another key of the"
                        + " table as N");
    }

    @Test
    void moreLocalIndexesThanDynamoDbTakes_areRefused() {
        List<TableIndex> locals = new ArrayList<>();
        for (int i = 0; i <= TableIndex.MAX_LOCAL; i++) {
            locals.add(TableIndex.local("Local" + i, "key" + i));
        }
        assertThatThrownBy(() -> DomainRegistry.of(domain("shelf", declared("shelf")
                .indexes(locals.toArray(TableIndex[]::new))))).hasMessageContaining("6 local and 0 global indexes");
    }

    @Test
    void anIndexThatCannotBe_isRefusedWhereItIsDeclared() {
        assertThatThrownBy(() -> new TableIndex("Odd", true, key("other"), key("r"), ProjectionType.ALL, List.of(), ""))
                .hasMessageContaining("must have the table's pk as its hash key");
        assertThatThrownBy(() -> new TableIndex("All", false, key("h"), key("r"), ProjectionType.ALL, List.of("x"), ""))
                .hasMessageContaining("takes no attributes");
        assertThatThrownBy(() -> TableIndex.global("x", "h", "r")).hasMessageContaining("index name 'x'");
    }
}
