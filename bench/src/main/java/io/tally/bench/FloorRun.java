package io.tally.bench;

import io.tally.testkit.TableWriter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.Key;
import io.tally.core.ShardCursorItem;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.stream.StreamRecords;
import io.tally.stream.StreamWiring;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.SdkResponse;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Capacity;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

/**
 * Tally's write units against the floor ({@link WriteUnitFloor}): the workload's stream replayed to Tally's engine
 * once more, untimed, on a table of its own, in the same batches as the measured replay, with the whole table scanned
 * (consistently) after every batch. The floor of a batch comes from the two scans alone: every item whose content
 * changed, written once at its size, with the index writes the table's definition implies, plus the shard cursor's two
 * writes. It knows nothing of the engine's plan. Tally's units are what DynamoDB Local reported for the same replay's
 * requests, filed under the item type of the item each addresses (as the scans show it), and set against the floor
 * item by item: writes of items the batch left unchanged, second and later writes of an item in one batch, and a first
 * write that cost more than the floor's.
 */
final class FloorRun {
    private static final Logger LOG = LoggerFactory.getLogger(FloorRun.class);
    static final String PROCESSOR = "tally-floor";

    private FloorRun() {
    }

    /**
     * The floor alone ({@code --floor}): records a workload's writes on a fresh server, reads its stream and replays it
     * for the floor only, without the measured replays.
     */
    static Results.WorkloadResult alone(String name, double skew, List<io.tally.core.workload.Write> writes) {
        // As ReplayRun records a workload, without the base items (the floor runs no oracle).
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            DynamoDbClient admin = server.client();
            String recording = "rec-" + name;
            admin.createTable(TableDefinition.createTableRequest(recording));
            TableWriter.write(admin, recording, writes, Bench.WRITER_THREADS);
            Map<String, List<SourceRecord>> stream = StreamReader.readAll(server.streamsClient(), recording,
                    StreamRecords::fromSdk);
            int records = stream.values().stream().mapToInt(List::size).sum();
            Results.Floor floor = run(server, name, stream, Bench.BATCH_SIZE);
            return new Results.WorkloadResult(name, skew, writes.size(), Bench.WRITER_THREADS, 0, records,
                    stream.size(), 0, 0, null, null, null, floor);
        }
    }

    static Results.Floor run(LocalDynamoDbServer server, String workload, Map<String, List<SourceRecord>> stream,
                             int batchSize) {
        return run(server, workload, stream, batchSize, 0);
    }

    /**
     * As {@link #run(LocalDynamoDbServer, String, Map, int)}, the first {@code skip} records of each shard applied
     * (in batches of their own) but not counted: the floor of the rest, from the state those records leave.
     */
    static Results.Floor run(LocalDynamoDbServer server, String workload, Map<String, List<SourceRecord>> stream,
                             int batchSize, int skip) {
        String table = PROCESSOR + "-" + workload;
        CreateTableRequest definition = TableDefinition.createTableRequest(table).toBuilder()
                .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build();
        DynamoDbClient admin = server.client();
        admin.createTable(definition);
        WriteUnitFloor floor = WriteUnitFloor.of(definition);
        WriteLog log = new WriteLog();
        Map<String, Share> shares = new TreeMap<>();
        int records = 0;
        int batches = 0;
        long started = System.nanoTime();
        try (DynamoDbClient client = server.client(log);
             Engine engine = StreamWiring.engine(client, table, events -> List.of(), new SimpleMeterRegistry(),
                     ShardSettings.DEFAULTS)) {
            Map<Key, Map<String, AttributeValue>> before = Map.of();
            for (List<SourceRecord> shard : stream.values()) {
                int skipped = Math.min(skip, shard.size());
                for (int from = 0; from < skipped; from += batchSize) {
                    ReplayRun.processWithRetries(engine, shard.subList(from, Math.min(skipped, from + batchSize)));
                }
                if (skipped > 0) {
                    before = scan(admin, table);
                    log.drain();
                }
                for (int from = skipped; from < shard.size(); from += batchSize) {
                    List<SourceRecord> batch = shard.subList(from, Math.min(shard.size(), from + batchSize));
                    ReplayRun.processWithRetries(engine, batch);
                    Map<Key, Map<String, AttributeValue>> after = scan(admin, table);
                    account(floor, before, after, log.drain(), shares);
                    before = after;
                    records += batch.size();
                    batches++;
                }
            }
        }
        List<Results.FloorShare> byType = new ArrayList<>();
        shares.forEach((type, share) -> byType.add(share.result(type)));
        Results.Floor result = new Results.Floor(records, batchSize, batches, byType);
        LOG.info("{}: floor replay of {} records in {} batches took {}s: Tally {} write units, the floor {}", workload,
                records, batches, Report.fmt(Timing.seconds(started), 1),
                Report.fmt(byType.stream().mapToDouble(Results.FloorShare::tallyUnits).sum(), 0),
                Report.fmt(byType.stream().mapToDouble(Results.FloorShare::floorUnits).sum(), 0));
        return result;
    }

    /** One batch: the floor of each item the two states differ in, and Tally's writes set against it item by item. */
    static void account(WriteUnitFloor floor, Map<Key, Map<String, AttributeValue>> before,
                        Map<Key, Map<String, AttributeValue>> after, List<Write> writes, Map<String, Share> shares) {
        Set<Key> keys = new HashSet<>(before.keySet());
        keys.addAll(after.keySet());
        Map<Key, Integer> floorUnits = new HashMap<>();
        for (Key key : keys) {
            Map<String, AttributeValue> was = before.get(key);
            Map<String, AttributeValue> is = after.get(key);
            Share share = shares.computeIfAbsent(type(was, is), t -> new Share());
            if (isCursor(key)) {
                if (!WriteUnitFloor.same(was, is)) {
                    int units = WriteUnitFloor.cursorUnits(was, is);
                    share.floorWrites += 2;
                    share.floor.merge(WriteUnitFloor.TABLE, (double) units, Double::sum);
                    floorUnits.put(key, units);
                }
                continue;
            }
            Map<String, Integer> units = floor.units(WriteUnitFloor.content(was), WriteUnitFloor.content(is));
            if (!units.isEmpty()) {
                share.floorWrites++;
                units.forEach((destination, used) -> share.floor.merge(destination, (double) used, Double::sum));
                floorUnits.put(key, units.values().stream().mapToInt(Integer::intValue).sum());
            }
        }
        Map<Key, List<Write>> byKey = new LinkedHashMap<>();
        writes.forEach(write -> byKey.computeIfAbsent(write.key(), k -> new ArrayList<>()).add(write));
        byKey.forEach((key, ofKey) -> {
            Share share = shares.computeIfAbsent(type(before.get(key), after.get(key)), t -> new Share());
            double units = 0;
            for (Write write : ofKey) {
                share.writes++;
                write.units().forEach((destination, used) -> share.tally.merge(destination, used, Double::sum));
                units += write.total();
            }
            Integer least = floorUnits.get(key);
            if (isCursor(key)) {
                share.sizeUnits += units - (least == null ? 0 : least);
            } else if (least == null) {
                share.unchangedWrites += ofKey.size();
                share.unchangedUnits += units;
            } else {
                double first = ofKey.get(0).total();
                share.sizeUnits += first - least;
                share.repeatWrites += ofKey.size() - 1;
                share.repeatUnits += units - first;
            }
        });
    }

    private static boolean isCursor(Key key) {
        return key.pk().startsWith(ShardCursorItem.PREFIX) && key.sk().equals(ShardCursorItem.SORT_KEY);
    }

    /** The item type of an item, from its state after the batch, else before. */
    private static String type(Map<String, AttributeValue> before, Map<String, AttributeValue> after) {
        for (Map<String, AttributeValue> item : List.of(after == null ? Map.<String, AttributeValue>of() : after,
                before == null ? Map.<String, AttributeValue>of() : before)) {
            AttributeValue type = item.get(TableSchema.ENTITY_TYPE);
            if (type != null && type.s() != null) {
                return type.s();
            }
        }
        return "other";
    }

    private static Map<Key, Map<String, AttributeValue>> scan(DynamoDbClient admin, String table) {
        Map<Key, Map<String, AttributeValue>> items = new HashMap<>();
        admin.scanPaginator(r -> r.tableName(table).consistentRead(true)).items()
                .forEach(item -> items.put(Key.of(item), item));
        return items;
    }

    /** One item type's tallies over the replay. */
    static final class Share {
        long writes;
        final Map<String, Double> tally = new TreeMap<>();
        long floorWrites;
        final Map<String, Double> floor = new TreeMap<>();
        long unchangedWrites;
        double unchangedUnits;
        long repeatWrites;
        double repeatUnits;
        double sizeUnits;

        Results.FloorShare result(String type) {
            return new Results.FloorShare(type, writes, sum(tally), tally, floorWrites, sum(floor), floor,
                    unchangedWrites, unchangedUnits, repeatWrites, repeatUnits, sizeUnits);
        }

        private static double sum(Map<String, Double> units) {
            return units.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /** One successful single-item write: the item it addressed and the units DynamoDB reported per destination. */
    record Write(Key key, Map<String, Double> units) {
        double total() {
            return units.values().stream().mapToDouble(Double::doubleValue).sum();
        }
    }

    /**
     * Asks for {@code ReturnConsumedCapacity=INDEXES} on every UpdateItem and PutItem, and logs each one answered with
     * the key it addressed and its units per destination ({@link RequestCounter#TABLE}, or an index by name).
     */
    static final class WriteLog implements ExecutionInterceptor {
        private final ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            return RequestCounter.withConsumedCapacity(context.request());
        }

        @Override
        public void afterUnmarshalling(Context.AfterUnmarshalling context, ExecutionAttributes attributes) {
            SdkResponse response = context.response();
            ConsumedCapacity capacity = null;
            Key key = null;
            if (response instanceof UpdateItemResponse update
                    && context.request() instanceof UpdateItemRequest request) {
                capacity = update.consumedCapacity();
                key = Key.of(request.key());
            } else if (response instanceof PutItemResponse put && context.request() instanceof PutItemRequest request) {
                capacity = put.consumedCapacity();
                key = Key.of(request.item());
            }
            if (capacity == null || capacity.capacityUnits() == null) {
                return;
            }
            Map<String, Double> units = new TreeMap<>();
            double indexes = 0;
            for (Map<String, Capacity> byIndex : List.of(capacity.globalSecondaryIndexes(),
                    capacity.localSecondaryIndexes())) {
                for (Map.Entry<String, Capacity> index : byIndex.entrySet()) {
                    double used = index.getValue().capacityUnits() == null ? 0 : index.getValue().capacityUnits();
                    indexes += used;
                    units.merge(index.getKey(), used, Double::sum);
                }
            }
            units.put(RequestCounter.TABLE, capacity.table() != null && capacity.table().capacityUnits() != null
                    ? capacity.table().capacityUnits() : capacity.capacityUnits() - indexes);
            writes.add(new Write(key, units));
        }

        /** The writes logged since the last call. */
        List<Write> drain() {
            List<Write> drained = new ArrayList<>();
            for (Write write = writes.poll(); write != null; write = writes.poll()) {
                drained.add(write);
            }
            return drained;
        }
    }
}
