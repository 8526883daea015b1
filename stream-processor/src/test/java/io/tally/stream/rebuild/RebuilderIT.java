package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.Users;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.Workload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;

class RebuilderIT {
    private final DynamoDbClient dynamo = LocalDynamoDb.client();
    private final String table = LocalDynamoDb.createTable("rebuild");
    private final Rebuilder rebuilder = rebuilder(table);

    /** The workloads with poison write items of unknown types (an album, one of none), which the repair may ignore. */
    private Rebuilder rebuilder(String table) {
        return strictRebuilder(table).withUnknownTypesAllowed(true);
    }

    private Rebuilder strictRebuilder(String table) {
        return new Rebuilder(dynamo, LocalDynamoDb.streamsClient(), table, DomainRegistry.load().derivations(ShardSettings.DEFAULTS), 3);
    }

    @Test
    void verify_tableWithoutStream_baseItemsWithoutDerivedData_reportsEveryMissingFigure() {
        String plain = "rebuild-plain-" + java.util.UUID.randomUUID();
        dynamo.createTable(TableDefinition.createTableRequest(plain).toBuilder()
                .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build());
        new Workload(dynamo, plain, 7, 0, false).run(60);
        VerificationReport report = rebuilder(plain).verify();
        assertThat(report.position().hasStream()).isFalse();
        assertThat(report.baseItems()).isPositive();
        assertThat(report.derivedItems()).isZero();
        assertThat(report.behindItems()).isZero();
        assertThat(report.isExact()).isFalse();
        assertThat(report.differences()).isNotEmpty().allSatisfy(d -> assertThat(d.actual()).isNull());
    }

    @Test
    void verify_streamNotProcessed_everyDerivedItemIsBehindAndNoneCompared() {
        new Workload(dynamo, table, 7, 0, false).run(60);
        VerificationReport report = rebuilder.verify();
        assertThat(report.position().hasStream()).isTrue();
        assertThat(report.position().lastSequences()).isNotEmpty();
        assertThat(report.baseItems()).isPositive();
        assertThat(report.derivedItems()).isZero();
        assertThat(report.differences()).isEmpty();
        assertThat(report.behindItems()).isPositive();
        assertThat(report.isExact()).isFalse();
    }

    @Test
    void repair_thenVerify_isExactAndKeepsWatermarks() {
        new Workload(dynamo, table, 11, 1.1, true).run(120);
        List<Long> progress = new ArrayList<>();
        RepairReport repaired = rebuilder.repair(progress::add);
        assertThat(repaired.isComplete()).isTrue();
        assertThat(repaired.written()).isPositive();
        assertThat(repaired.found().behindItems()).isPositive();
        assertThat(progress).isNotEmpty().isSorted();
        assertThat(rebuilder.verify().isExact()).isTrue();

        dynamo.updateItem(r -> r.tableName(table).key(Users.globalStatsKey(0).toAttributeMap())
                .updateExpression("SET #users = #users + :one, wm_test = :wm")
                .expressionAttributeNames(Map.of("#users", "users"))
                .expressionAttributeValues(Map.of(":one", AttributeValue.fromN("1"), ":wm", AttributeValue.fromS("0042"))));
        VerificationReport tampered = rebuilder.verify();
        assertThat(tampered.differences()).singleElement().satisfies(d -> {
            // The global totals compare as the sum of their slots.
            assertThat(d.key()).isEqualTo(Users.GLOBAL_STATS.key("*"));
            assertThat(d.type()).isEqualTo(Users.GLOBAL_STATS.entityType());
            assertThat(d.attribute()).isEqualTo("users");
        });

        assertThat(rebuilder.repair(count -> { }).written()).isEqualTo(1);
        assertThat(rebuilder.verify().isExact()).isTrue();
        var global = dynamo.getItem(r -> r.tableName(table).key(Users.globalStatsKey(0).toAttributeMap())).item();
        assertThat(global.get("wm_test").s()).isEqualTo("0042");
    }

    @Test
    void verify_poisonItems_areCountedUnreadableNotDerived() {
        Workload workload = new Workload(dynamo, table, 3, 0, true);
        workload.run(400);
        VerificationReport report = rebuilder.repair(count -> { }).found();
        assertThat(report.unreadableItems()).isPositive();
        assertThat(report.unreadableItems()).isEqualTo(report.unknownTypes().values().stream().mapToLong(n -> n).sum()
                + report.unreadableTypes().values().stream().mapToLong(n -> n).sum());
        assertThat(rebuilder.verify().isExact()).isTrue();
    }

    @Test
    void repair_itemsOfTypesNoDomainDeclares_refusedBeforeWritingAnything_eachTypeNamed() {
        Workload workload = new Workload(dynamo, table, 3, 0, false);
        workload.run(40);
        Key stray = new Key("ALBUM#a1", "#METADATA#");
        Map<String, AttributeValue> album = new HashMap<>(stray.toAttributeMap());
        album.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS("Album"));
        dynamo.putItem(r -> r.tableName(table).item(album));
        dynamo.putItem(r -> r.tableName(table).item(new Key("MISC#1", "x").toAttributeMap()));
        // A derived item of a domain that is not loaded: it carries the stream processor's watermarks.
        Map<String, AttributeValue> albumStats = new HashMap<>(new Key("ALBUM#a1", "#STATS#").toAttributeMap());
        albumStats.put(TableSchema.ENTITY_TYPE, AttributeValue.fromS("AlbumStats"));
        albumStats.put("plays", AttributeValue.fromN("3"));
        albumStats.put("wm_shard1", AttributeValue.fromS("0042"));
        dynamo.putItem(r -> r.tableName(table).item(albumStats));
        Rebuilder strict = strictRebuilder(table);

        VerificationReport found = strict.verify();
        assertThat(found.unknownTypes()).containsExactlyInAnyOrderEntriesOf(Map.of("Album", 1L, "(no entityType)", 1L));
        assertThat(found.undeclaredDerivedTypes()).containsExactlyInAnyOrderEntriesOf(Map.of("AlbumStats", 1L));
        assertThat(found.unreadableTypes()).isEmpty();
        assertThat(found.unreadableItems()).isEqualTo(2);
        assertThatThrownBy(() -> strict.repair(count -> { }))
                .isInstanceOfSatisfying(Rebuilder.UnknownEntityTypes.class,
                        e -> assertThat(e.types()).containsEntry("Album", 1L).containsEntry("(no entityType)", 1L)
                                .containsEntry("AlbumStats", 1L));
        // Nothing written: the stream processor never ran, so every derived item is still missing.
        assertThat(strict.verify().derivedItems()).isZero();

        assertThat(strict.withUnknownTypesAllowed(true).repair(count -> { }).isComplete()).isTrue();
        assertThat(strict.verify().derivedItems()).isPositive();
        // The undeclared derived item is left as it was.
        assertThat(dynamo.getItem(r -> r.tableName(table).key(new Key("ALBUM#a1", "#STATS#").toAttributeMap())).item())
                .isEqualTo(albumStats);
    }
}
