package io.tally.stream.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.Items;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.users.Users;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.testkit.HookedDynamoDb;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * Repair and backfill at a stream position, on DynamoDB Local's real stream, with the real engine processing the
 * stream before, during and after: afterwards the engine processes the whole stream again from its trim horizon (the
 * records the repair reflects included) and derived data must equal the recomputation.
 */
class RepairIT {
    private static HookedDynamoDb server;
    private static DynamoDbClient dynamo;
    private static DynamoDbStreamsClient streams;
    private static final Hooks HOOKS = new Hooks();
    /** The rebuilder's client: its scans and writes pass the test's hooks. */
    private static DynamoDbClient hooked;
    private static final AtomicInteger TABLES = new AtomicInteger();

    private final Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);

    @BeforeAll
    static void start() {
        server = HookedDynamoDb.start(HOOKS);
        dynamo = server.plain();
        streams = server.streams();
        hooked = server.hooked();
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private Rebuilder rebuilder(String table) {
        HOOKS.reset();
        // The workloads with poison write items of unknown types, which the repair is to ignore.
        return new Rebuilder(hooked, streams, table, derivations, 3).withUnknownTypesAllowed(true);
    }

    @Test
    void repair_withABacklogAndCorruptedItems_thenTheWholeStream_isExact() {
        String table = table(true);
        Workload workload = new Workload(dynamo, table, 21, 1.1, true);
        workload.run(200);
        try (Engine engine = engine(table)) {
            stream(table).values().forEach(records -> process(engine, records.subList(0, records.size() / 2)));
            corrupt(table, Users.statsKey(workload.users().get(0)), "posts", "99");
            corrupt(table, Users.globalStatsKey(1), "comments", "-5");

            RepairReport repair = rebuilder(table).repair(count -> { });

            assertThat(repair.isComplete()).isTrue();
            assertThat(repair.found().behindItems()).isPositive();
            assertThat(repair.written()).isPositive();
            assertThat(rebuilder(table).verify().isExact()).isTrue();

            // The engine resumes from the trim horizon: what it had applied, what the repair reflects, and the rest.
            stream(table).values().forEach(records -> process(engine, records));
            assertExact(table);
        }
    }

    @Test
    void repair_anItemDynamoDbRefusesAsInvalid_isReportedWithTheReason_andTheOthersAreRepaired() {
        String table = table(true);
        Workload workload = new Workload(dynamo, table, 13, 1.1, true);
        workload.run(120);
        try (Engine engine = engine(table)) {
            stream(table).values().forEach(records -> process(engine, records));
            Key invalid = Users.statsKey(workload.users().get(0));
            Key fixable = Users.statsKey(workload.users().get(1));
            corrupt(table, invalid, "posts", "99");
            corrupt(table, fixable, "posts", "98");
            Rebuilder rebuilder = rebuilder(table);
            HOOKS.invalidUpdate = invalid;

            RepairReport repair = rebuilder.repair(count -> { });

            assertThat(repair.isComplete()).isFalse();
            assertThat(repair.failed()).singleElement().satisfies(failure -> {
                assertThat(failure.key()).isEqualTo(invalid);
                assertThat(failure.reason()).startsWith("ValidationException: ").contains("Item size");
            });
            assertThat(repair.refused()).isEmpty();
            VerificationReport after = rebuilder(table).verify();
            assertThat(after.differences()).as("only the item DynamoDB refused still differs")
                    .isNotEmpty().allSatisfy(difference -> assertThat(difference.key()).isEqualTo(invalid));
        }
    }

    @Test
    void repair_writesRacingTheScan_thenTheWholeStream_isExact() {
        String table = table(true);
        Workload workload = new Workload(dynamo, table, 5, 1.1, true);
        workload.run(150);
        try (Engine engine = engine(table)) {
            stream(table).values().forEach(records -> process(engine, records.subList(0, records.size() / 3)));
            corrupt(table, Users.statsKey(workload.users().get(0)), "comments", "42");
            Rebuilder rebuilder = rebuilder(table);
            AtomicInteger racing = raceTheScan(workload);

            RepairReport repair = rebuilder.repair(count -> { });

            assertThat(racing.get()).as("writes made while the scan ran").isGreaterThan(20);
            assertThat(repair.isComplete()).isTrue();
            stream(table).values().forEach(records -> process(engine, records));
            assertExact(table);
        }
    }

    @Test
    void verify_writesRacingTheScan_reportsThoseItemsBehindAndNoFalseDifference() {
        String table = table(true);
        Workload workload = new Workload(dynamo, table, 8, 1.1, false);
        workload.run(150);
        try (Engine engine = engine(table)) {
            stream(table).values().forEach(records -> process(engine, records));
            Rebuilder rebuilder = rebuilder(table);
            AtomicInteger racing = raceTheScan(workload);

            VerificationReport report = rebuilder.verify();

            assertThat(racing.get()).isGreaterThan(20);
            assertThat(report.differences()).isEmpty();
            assertThat(report.behindItems()).isPositive();
            stream(table).values().forEach(records -> process(engine, records));
            assertExact(table);
        }
    }

    @Test
    void backfill_historyOlderThanTheStream_removalsOfOldItemsSubtractWhatTheBackfillCounted() {
        String table = table(false);
        Workload workload = new Workload(dynamo, table, 13, 1.1, true);
        workload.run(150);
        dynamo.updateTable(r -> r.tableName(table).streamSpecification(StreamSpecification.builder()
                .streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build()));
        workload.run(250);
        Map<String, List<SourceRecord>> stream = stream(table);
        assertThat(removalsOfItemsOlderThanTheStream(stream)).as("REMOVEs of items the stream never inserted")
                .isPositive();
        try (Engine engine = engine(table)) {
            // A stream processor started before the backfill: it counts the removals of old items below zero.
            stream.values().forEach(records -> process(engine, records.subList(0, records.size() / 3)));

            RepairReport backfill = rebuilder(table).repair(count -> { });

            assertThat(backfill.isComplete()).isTrue();
            workload.run(50);
            stream(table).values().forEach(records -> process(engine, records));
            assertExact(table);
            assertThat(negativeCounters(table)).isEmpty();
        }
    }

    @Test
    void repair_streamProcessorMovesAnItemPastThePosition_refusesThatItem_andARepeatedRepairCompletes() {
        String table = table(true);
        Workload workload = new Workload(dynamo, table, 3, 0, false);
        workload.run(120);
        String user = workload.users().get(0);
        try (Engine engine = engine(table)) {
            stream(table).values().forEach(records -> process(engine, records.subList(0, records.size() / 2)));
            corrupt(table, Users.statsKey(user), "posts", "99");
            Rebuilder rebuilder = rebuilder(table);
            // Between the rebuilder's read of an item and its first write, u1 posts again and the stream processor
            // applies everything, the new post (past the position) included: the write's condition fails, and the
            // item read again is past the position.
            HOOKS.beforeFirstUpdate = () -> {
                Instant now = Instant.parse("2026-06-01T00:00:00Z");
                dynamo.putItem(r -> r.tableName(table).item(
                        new Post("late", user, "Late", "body", PostStatus.CREATED, now, now, 1).toItem()));
                stream(table).values().forEach(records -> process(engine, records));
            };

            RepairReport first = rebuilder.repair(count -> { });

            assertThat(first.isComplete()).isFalse();
            assertThat(first.refused()).contains(Users.statsKey(user));
            assertThat(first.uncertain()).isEmpty();
            // Overwriting it would have taken the new post out and moved its watermark back before it, and a stream
            // processor that has checkpointed past the post never delivers it again.
            RepairReport second = rebuilder(table).repair(count -> { });
            assertThat(second.isComplete()).isTrue();
            assertExact(table);
            assertThat(dynamo.getItem(r -> r.tableName(table).key(Users.statsKey(user).toAttributeMap()))
                    .item().get("posts").n()).isNotEqualTo("99");
            stream(table).values().forEach(records -> process(engine, records));
            assertExact(table);
        }
    }

    /** Two workload writes after every page the rebuilder's scan reads (pages of 7 items). */
    private static AtomicInteger raceTheScan(Workload workload) {
        AtomicInteger writes = new AtomicInteger();
        HOOKS.scanLimit = 7;
        HOOKS.afterScanPage = () -> {
            synchronized (workload) {
                workload.step();
                workload.step();
                writes.addAndGet(2);
            }
        };
        return writes;
    }

    private void assertExact(String table) {
        VerificationReport report = rebuilder(table).verify();
        assertThat(report.differences()).isEmpty();
        assertThat(report.behindItems()).isZero();
        assertThat(report.derivedItems()).isPositive();
    }

    private static String table(boolean stream) {
        String name = "repair-" + TABLES.incrementAndGet();
        var request = TableDefinition.createTableRequest(name);
        if (!stream) {
            request = request.toBuilder().streamSpecification(StreamSpecification.builder().streamEnabled(false).build())
                    .build();
        }
        dynamo.createTable(request);
        return name;
    }

    private static Map<String, List<SourceRecord>> stream(String table) {
        return StreamReader.readAll(streams, table, StreamRecords::fromSdk);
    }

    private Engine engine(String table) {
        return Engine.builder().derivations(derivations).store(new DynamoDbDerivedStore(dynamo, table))
                .deadLetters(new DynamoDbDeadLetterSink(dynamo, table)).publisher(new RecordingPublisher()).build();
    }

    private static void process(Engine engine, List<SourceRecord> records) {
        for (int from = 0; from < records.size(); from += 10) {
            BatchResult result = engine.process(records.subList(from, Math.min(records.size(), from + 10)));
            assertThat(result.failedSequenceNumber()).isEmpty();
        }
    }

    private static void corrupt(String table, Key key, String counter, String value) {
        dynamo.updateItem(UpdateItemRequest.builder().tableName(table).key(key.toAttributeMap())
                .updateExpression("SET #c = :v").expressionAttributeNames(Map.of("#c", counter))
                .expressionAttributeValues(Map.of(":v", AttributeValue.fromN(value))).build());
    }

    private static long removalsOfItemsOlderThanTheStream(Map<String, List<SourceRecord>> stream) {
        Set<Map<String, AttributeValue>> inserted = new HashSet<>();
        long removals = 0;
        for (List<SourceRecord> records : stream.values()) {
            for (SourceRecord record : records) {
                if (record.eventName().equals("INSERT")) {
                    inserted.add(record.keys());
                } else if (record.eventName().equals("REMOVE") && !inserted.contains(record.keys())) {
                    removals++;
                }
            }
        }
        return removals;
    }

    /** Counters below zero; for a shared item, its whole (a partial alone may be negative). */
    private static List<String> negativeCounters(String table) {
        Map<String, Long> sums = new TreeMap<>();
        for (Map<String, AttributeValue> item : dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items()) {
            DomainRegistry.load().derivedType(Items.entityTypeName(item)).ifPresent(type -> item.forEach((name, value) -> {
                if (type.isCounter(name) && value.n() != null) {
                    Key key = type.isShared() ? type.whole(Key.of(item)) : Key.of(item);
                    sums.merge(key + " " + name, Long.parseLong(value.n()), Long::sum);
                }
            }));
        }
        List<String> negative = new ArrayList<>();
        sums.forEach((counter, sum) -> {
            if (sum < 0) {
                negative.add(counter + " = " + sum);
            }
        });
        return negative;
    }

    /** The test's hands in the rebuilder's requests. */
    private static final class Hooks implements ExecutionInterceptor {
        volatile Integer scanLimit;
        volatile Runnable afterScanPage;
        volatile Runnable beforeFirstUpdate;
        /** An item whose PutItem DynamoDB answers with a ValidationException, as it does past its limits. */
        volatile Key invalidUpdate;

        void reset() {
            scanLimit = null;
            afterScanPage = null;
            beforeFirstUpdate = null;
            invalidUpdate = null;
        }

        @Override
        public SdkRequest modifyRequest(Context.ModifyRequest context, ExecutionAttributes attributes) {
            Integer limit = scanLimit;
            if (context.request() instanceof ScanRequest scan && limit != null) {
                return scan.toBuilder().limit(limit).build();
            }
            return context.request();
        }

        @Override
        public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
            // A repair writes one item with PutItem, a shared item and its partials in one transaction.
            Key invalid = invalidUpdate;
            boolean writesInvalid = invalid != null && (context.request() instanceof PutItemRequest put
                    && Key.of(put.item()).equals(invalid)
                    || context.request() instanceof TransactWriteItemsRequest transaction
                    && transaction.transactItems().stream().anyMatch(item -> item.put() != null
                    && Key.of(item.put().item()).equals(invalid)));
            if (writesInvalid) {
                throw DynamoDbException.builder().statusCode(400).awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode("ValidationException").errorMessage("Item size has exceeded the maximum allowed size")
                        .build()).build();
            }
            if (context.request() instanceof PutItemRequest) {
                Runnable hook = beforeFirstUpdate;
                beforeFirstUpdate = null;
                if (hook != null) {
                    hook.run();
                }
            }
        }

        @Override
        public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
            Runnable hook = afterScanPage;
            if (context.response() instanceof ScanResponse && hook != null) {
                hook.run();
            }
        }
    }
}
