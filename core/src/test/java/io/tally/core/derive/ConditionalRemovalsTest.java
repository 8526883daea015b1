package io.tally.core.derive;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Key;
import io.tally.core.TableDefinition;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.dynamodb.services.local.embedded.DynamoDBEmbedded;
import software.amazon.dynamodb.services.local.shared.access.AmazonDynamoDBLocal;

/**
 * The removals a cascade runner makes, against DynamoDB Local embedded (the test kit depends on core): a parent whose
 * dependants live either in a partition of their own ({@code DEPS#p}) or one in each partition of its siblings
 * ({@code S#<id>}, listed in partition {@code LIST} under the prefix {@code SIB#}).
 */
class ConditionalRemovalsTest {
    private static final String INCARNATION = "parentIncarnation";
    private static AmazonDynamoDBLocal local;
    private static DynamoDbClient dynamo;
    private static int tables;
    private String table;
    private ConditionalRemovals removals;

    @BeforeAll
    static void start() {
        local = DynamoDBEmbedded.create(true);
        dynamo = local.dynamoDbClient();
    }

    @AfterAll
    static void stop() {
        local.shutdown();
    }

    @BeforeEach
    void createTable() {
        table = "removals-" + ++tables;
        dynamo.createTable(TableDefinition.createTableRequest(table));
        removals = new ConditionalRemovals(dynamo, table);
    }

    @Test
    void removeInPartition_removesOnlyTheRemovedIncarnationsDependants_acrossPages_once() {
        for (int i = 0; i < 750; i++) { // 2 KB items: the partition takes more than one 1 MB page
            put(new Key("DEPS#p", String.format("D#%04d", i)), i % 3 == 0 ? "later" : "i1", "x".repeat(2_000));
        }

        int removed = removals.removeInPartition("DEPS#p", INCARNATION, "i1");

        assertThat(removed).isEqualTo(500);
        assertThat(count("DEPS#p")).isEqualTo(250);
        assertThat(removals.removeInPartition("DEPS#p", INCARNATION, "i1")).isZero();
    }

    @Test
    void removeAcross_readsEachSiblingsPossibleDependant_inBatchesOfAHundred() {
        for (int i = 0; i < 250; i++) {
            String id = String.format("s%03d", i);
            put(new Key("LIST", "SIB#" + id), null, null, "siblingId", id);
            if (i % 5 != 0) { // no dependant under every fifth sibling
                put(new Key("S#" + id, "DEP#p"), i % 10 == 1 ? "later" : "i1", null);
            }
        }
        put(new Key("LIST", "OTHER#x"), null, null, "siblingId", "x"); // outside the prefix: not a sibling
        put(new Key("S#x", "DEP#p"), "i1", null);

        int removed = removals.removeAcross("LIST", "SIB#", "siblingId", id -> new Key("S#" + id, "DEP#p"),
                INCARNATION, "i1");

        assertThat(removed).isEqualTo(175); // 200 dependants, of which 25 belong to a later incarnation
        assertThat(count("S#s001")).isEqualTo(1);
        assertThat(count("S#s002")).isZero();
        assertThat(count("S#x")).isEqualTo(1);
        assertThat(removals.removeAcross("LIST", "SIB#", "siblingId", id -> new Key("S#" + id, "DEP#p"),
                INCARNATION, "i1")).isZero();
    }

    @Test
    void everyReadIsConsistent_andADeleteIsConditionalOnTheIncarnation() {
        QueryRequest partition = ConditionalRemovals.partitionPage("t", "DEPS#p", "pk, sk, a", null);
        QueryRequest siblings = ConditionalRemovals.prefixPage("t", "LIST", "SIB#", "siblingId", null);
        KeysAndAttributes keys = ConditionalRemovals.batchGet("t", List.of(new Key("S#1", "DEP#p")), "pk, sk, a")
                .requestItems().get("t");
        assertThat(partition.consistentRead()).isTrue();
        assertThat(siblings.consistentRead()).isTrue();
        assertThat(siblings.indexName()).isNull();
        assertThat(keys.consistentRead()).isTrue();
        DeleteItemRequest delete = ConditionalRemovals.delete("t", new Key("S#1", "DEP#p"), INCARNATION, "i1");
        assertThat(delete.conditionExpression()).isEqualTo("#incarnation = :incarnation");
        assertThat(delete.expressionAttributeNames()).containsEntry("#incarnation", INCARNATION);
        assertThat(delete.expressionAttributeValues()).containsEntry(":incarnation", AttributeValue.fromS("i1"));
    }

    private void put(Key key, String incarnation, String padding, String... attributes) {
        Map<String, AttributeValue> item = new HashMap<>(key.toAttributeMap());
        if (incarnation != null) {
            item.put(INCARNATION, AttributeValue.fromS(incarnation));
        }
        if (padding != null) {
            item.put("padding", AttributeValue.fromS(padding));
        }
        for (int i = 0; i < attributes.length; i += 2) {
            item.put(attributes[i], AttributeValue.fromS(attributes[i + 1]));
        }
        dynamo.putItem(builder -> builder.tableName(table).item(item));
    }

    private int count(String pk) {
        return dynamo.query(builder -> builder.tableName(table).keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk))).consistentRead(true)).count();
    }
}
