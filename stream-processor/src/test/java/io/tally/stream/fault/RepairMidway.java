package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.DerivedType;
import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.RepairReport;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The REPAIR_BACKLOG and BACKFILL modes: a {@link Rebuilder#repair} at the stream's position while records are still
 * unprocessed, then the engine resumes from its checkpoint, with faults, to the end of a stream that has grown since.
 */
final class RepairMidway {

    private final DynamoDbClient dynamo;
    private final DynamoDbStreamsClient streams;
    private final String table;
    private final Derivations derivations;

    RepairMidway(DynamoDbClient dynamo, DynamoDbStreamsClient streams, String table, Derivations derivations) {
        this.dynamo = dynamo;
        this.streams = streams;
        this.table = table;
        this.derivations = derivations;
    }

    /**
     * The engine processes the first part of each shard (a backfill: or nothing yet), with faults; a repair corrupts
     * up to three derived items first; the repair runs at the stream's position, unless {@code repair} is false. Then
     * the workload goes on, and each shard is delivered from where the engine stopped to its new end.
     *
     * @param backfill   the table's first items predate the stream: the engine may not have started yet, and the
     *                   workload must change or remove some of those items after the backfill
     * @param delivery   the delivery of one shard's records, with faults
     * @param faults     switched off while the repair runs, on again afterwards
     * @return the stream as it was delivered in the end
     */
    Map<String, List<SourceRecord>> run(boolean backfill, boolean repair, Workload workload,
                                        Map<String, List<SourceRecord>> stream, Random random,
                                        Function<List<SourceRecord>, Delivery> delivery, Runnable faultsOff,
                                        Runnable faultsOn) {
        Map<String, Integer> checkpoints = new HashMap<>();
        for (Map.Entry<String, List<SourceRecord>> shard : stream.entrySet()) {
            List<SourceRecord> records = shard.getValue();
            int cut = backfill && random.nextBoolean()
                    ? 0 : Math.min(records.size(), 1 + random.nextInt(Math.max(1, records.size() / 2)));
            delivery.apply(records.subList(0, cut)).run();
            checkpoints.put(shard.getKey(), cut);
        }
        faultsOff.run();
        if (!backfill) {
            corrupt(random);
        }
        if (repair) {
            RepairReport report = new Rebuilder(dynamo, streams, table, derivations, 2).withUnknownTypesAllowed(true)
                    .withCascades(CascadeRunner.overTable(dynamo, table)).repair(count -> { });
            assertThat(report.isComplete()).as("repair complete: %s", report).isTrue();
            assertThat(report.written()).as("derived items the repair wrote").isPositive();
            if (!backfill) {
                assertThat(report.found().behindItems()).as("derived items with records still to apply").isPositive();
            }
            assertThat(new Rebuilder(dynamo, streams, table, derivations, 2).verify().differences())
                    .as("differences right after the repair").isEmpty();
        }
        workload.run(10 + random.nextInt(20));
        Map<String, List<SourceRecord>> after = read();
        for (int round = 0; backfill && changesOfOlderItems(after) == 0 && round < 10; round++) {
            workload.run(10);
            after = read();
        }
        if (backfill) {
            assertThat(changesOfOlderItems(after)).as("changes and removals of items older than the stream")
                    .isPositive();
        }
        faultsOn.run();
        for (Map.Entry<String, List<SourceRecord>> shard : after.entrySet()) {
            delivery.apply(shard.getValue()).startingAt(checkpoints.getOrDefault(shard.getKey(), 0)).run();
        }
        return after;
    }

    private Map<String, List<SourceRecord>> read() {
        return StreamReader.readAll(streams, table, StreamRecords::fromSdk);
    }

    /** Up to three derived items corrupted: a counter set off, or the whole item deleted (watermarks included). */
    private void corrupt(Random random) {
        List<Map<String, AttributeValue>> derived = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            if (DomainRegistry.load().derivedType(Items.entityTypeName(item)).isPresent()) {
                derived.add(item);
            }
        });
        derived.sort(Comparator.comparing(item -> Key.of(item).toString()));
        Collections.shuffle(derived, random);
        for (Map<String, AttributeValue> item : derived.subList(0, Math.min(3, derived.size()))) {
            DerivedType type = DomainRegistry.load().derivedType(Items.entityTypeName(item)).orElseThrow();
            List<String> counters = item.keySet().stream().filter(type::isCounter).sorted().toList();
            Map<String, AttributeValue> key = Key.of(item).toAttributeMap();
            if (!counters.isEmpty() && random.nextBoolean()) {
                String counter = counters.get(random.nextInt(counters.size()));
                dynamo.updateItem(r -> r.tableName(table).key(key)
                        .updateExpression("ADD #c :d").expressionAttributeNames(Map.of("#c", counter))
                        .expressionAttributeValues(Map.of(":d", AttributeValue.fromN(
                                Integer.toString(1 + random.nextInt(5))))));
            } else {
                dynamo.deleteItem(r -> r.tableName(table).key(key));
            }
        }
    }

    /**
     * Records that change or remove an item whose INSERT is not in the stream: a base item older than the stream
     * (everything the engine and the backfill write is created after the stream was enabled).
     */
    private static long changesOfOlderItems(Map<String, List<SourceRecord>> stream) {
        Set<Map<String, AttributeValue>> inserted = new HashSet<>();
        long changes = 0;
        for (List<SourceRecord> records : stream.values()) {
            for (SourceRecord record : records) {
                if (record.eventName().equals("INSERT")) {
                    inserted.add(record.keys());
                } else if (!inserted.contains(record.keys())) {
                    changes++;
                }
            }
        }
        return changes;
    }
}
