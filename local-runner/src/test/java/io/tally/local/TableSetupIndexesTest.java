package io.tally.local;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.EntityType;
import io.tally.core.domain.Declaration;
import io.tally.core.domain.DeclaredDomain;
import io.tally.core.domain.Domain;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.domain.TableIndex;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndexDescription;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * The runner's table has the indexes of every loaded domain, those of a {@code --domain-jar} included: made with the
 * table, and a global one a domain declares later added to a table that predates it.
 */
class TableSetupIndexesTest {
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        dynamo = local.dynamoDbClient();
    }

    @AfterAll
    static void stop() {
        local.shutdown();
    }

    private static DomainRegistry withShelves(TableIndex... indexes) {
        List<Domain> domains = new ArrayList<>(DomainRegistry.load().domains());
        domains.add(new DeclaredDomain(Declaration.of("shelves").entityTypes(EntityType.base("SetupShelf"))
                .indexes(indexes)) {
        });
        return DomainRegistry.of(domains);
    }

    private static List<String> globalIndexes(String table) {
        TableDescription description = dynamo.describeTable(r -> r.tableName(table)).table();
        return description.globalSecondaryIndexes().stream().map(GlobalSecondaryIndexDescription::indexName).toList();
    }

    @Test
    void ensureTable_makesTheIndexesOfEveryDomain_andAddsAGlobalOneATableLacks() {
        TableIndex byLabel = TableIndex.global("ShelvesByLabel", "labelKey", "pk");
        assertThat(TableSetup.ensureTable(dynamo, "shelves-1", withShelves(byLabel))).isTrue();
        assertThat(globalIndexes("shelves-1")).contains("ShelvesByLabel", "CycleSelector");

        TableIndex byColour = TableIndex.global("ShelvesByColour", "colourKey", "pk");
        assertThat(TableSetup.ensureTable(dynamo, "shelves-1", withShelves(byLabel, byColour))).isFalse();
        assertThat(globalIndexes("shelves-1")).contains("ShelvesByLabel", "ShelvesByColour");
    }
}
