package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.tally.core.Key;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.TableSchema;
import io.tally.core.domains.Domains;
import io.tally.core.orgs.Employee;
import io.tally.core.orgs.Membership;
import io.tally.core.orgs.Orgs;
import io.tally.core.orgs.Team;
import io.tally.stream.SdkToLambdaRecords;
import io.tally.stream.StreamDomains;
import io.tally.stream.StreamRecords;
import io.tally.stream.WindowedStreamHandler;
import io.tally.stream.derive.Derivations;
import io.tally.stream.derive.IntendedChanges;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardCursors;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.events.DomainEvent;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.VerificationReport;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestLambdaContext;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryPolicy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * The invariant under at-least-once delivery, randomized: for each seed, a random workload of base writes
 * (poison items included) is read from the real stream of DynamoDB Local and delivered to the engine the way an
 * event source mapping might on a bad day ({@link Delivery}): random batch boundaries, duplicated and replayed
 * batches, retries from the reported record or any earlier one, throttling and transaction conflicts injected into
 * random SDK calls (before the call, or after it committed), crashes between two calls, an event bus that refuses
 * entries. Each seed also runs one {@link Mode} that breaks an assumption the design relies on or guards.
 *
 * <p>Afterwards derived data must equal the recomputation from the base items (the {@link Rebuilder}), no derived
 * item may exist that no record derives, and every event the records announce must have been published or filed
 * as a dead letter.
 *
 * <p>Cases: {@code -Dtally.fault.cases=N} (default 56, 8 per mode), {@code -Dtally.fault.mode=NAME} for one
 * mode; {@code -Dtally.fault.unguarded=true} runs without the shard cursor's guard and without giving up on events,
 * to show what the modes catch. A failing seed reproduces alone.
 */
class ExactlyOnceFaultIT {
    private static final int CASES = Integer.getInteger("tally.fault.cases", 56);
    private static final String ONLY = System.getProperty("tally.fault.mode", "");
    private static final boolean GUARDED = !Boolean.getBoolean("tally.fault.unguarded");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final FaultInterceptor FAULTS = new FaultInterceptor();
    private static LocalDynamoDbServer server;
    private static DynamoDbClient dynamo;
    private static DynamoDbClient faulty;

    /** What each case does besides the common faults. */
    enum Mode {
        /** The common faults only. */
        COMMON,
        /** After a reported failure, a delivery that starts after it comes first. */
        PAST_FAILURE,
        /** Two consumers deliver the same shard at the same time, each on its own. */
        TWO_CONSUMERS,
        /** The shard splits: a parent, then two children delivered interleaved in a random order. */
        SPLIT,
        /** Some events are refused for good: they must be given up on, and filed, not block the shard. */
        PERMANENT_EVENT_FAILURE,
        /** Items turn unreadable and readable again (MODIFY from and to garbage), unreadable items change. */
        POISON_MODIFY,
        /** Through {@link WindowedStreamHandler}: Lambda's event classes, the record conversion, the response. */
        HANDLER
    }

    @BeforeAll
    static void start() {
        server = LocalDynamoDbServer.start();
        dynamo = server.client();
        faulty = DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                // Injected faults must reach the engine, not be absorbed by the SDK's own retries.
                .overrideConfiguration(c -> c.retryPolicy(RetryPolicy.none()).addExecutionInterceptor(FAULTS))
                .build();
    }

    @AfterAll
    static void stop() {
        faulty.close();
        dynamo.close();
        server.close();
    }

    static Stream<Arguments> cases() {
        Mode[] modes = Mode.values();
        return LongStream.rangeClosed(1, CASES).boxed()
                .map(seed -> Arguments.of(seed, modes[(int) ((seed - 1) % modes.length)]))
                .filter(arguments -> ONLY.isEmpty() || ((Mode) arguments.get()[1]).name().equalsIgnoreCase(ONLY));
    }

    @ParameterizedTest(name = "seed {0}: {1}")
    @MethodSource("cases")
    void anyDelivery_withFaults_endsExactAndLosesNoEvent(long seed, Mode mode) throws InterruptedException {
        Random random = new Random(seed);
        String table = "fault-" + seed;
        dynamo.createTable(TableDefinition.createTableRequest(table));
        Workload workload = new Workload(dynamo, table, seed, random.nextBoolean() ? 1.1 : 0, true).withOrganisations();
        workload.run(10 + random.nextInt(25));
        // Enough organisation steps that most seeds delete a team or an employee with members.
        workload.runOrganisations(8 + random.nextInt(12));
        if (mode == Mode.POISON_MODIFY) {
            for (int i = 0; i < 8; i++) {
                workload.poisonStep();
                workload.run(2);
            }
        }
        String streamArn = StreamReader.streamArn(server.streamsClient(), table);
        Map<String, List<Record>> sdk = StreamReader.readAll(server.streamsClient(), table, (shard, record) -> record);
        Map<String, List<SourceRecord>> stream = new LinkedHashMap<>();
        sdk.forEach((shard, records) -> stream.put(shard,
                records.stream().map(record -> StreamRecords.fromSdk(shard, record)).toList()));

        Derivations derivations = StreamDomains.derivations(ShardSettings.DEFAULTS);
        RecordingPublisher publisher = new RecordingPublisher();
        Predicate<DomainEvent> alwaysRefused = mode == Mode.PERMANENT_EVENT_FAILURE
                ? event -> Math.floorMod(event.id().hashCode(), 3) == 0 : event -> false;
        FAULTS.configure(random, 0.02 + random.nextDouble() * 0.15);
        List<SourceRecord> all = new ArrayList<>(stream.values().stream().flatMap(List::stream).toList());
        try (Engine engine = engine(table, mode, derivations, publisher)) {
            switch (mode) {
                case TWO_CONSUMERS -> {
                    for (List<SourceRecord> records : stream.values()) {
                        twoConsumers(engine, records, random, publisher);
                    }
                }
                case SPLIT -> split(stream, random).forEach(family -> deliverFamily(engine, family, random, publisher));
                case HANDLER -> {
                    WindowedStreamHandler handler = new WindowedStreamHandler(engine, () -> { });
                    sdk.forEach((shard, records) -> delivery(stream.get(shard),
                            handlerInvoker(handler, shard, records, streamArn), random, publisher, alwaysRefused,
                            false, true).run());
                }
                default -> {
                    int past = 0;
                    int refused = 0;
                    for (List<SourceRecord> records : stream.values()) {
                        Delivery delivery = delivery(records, engineInvoker(engine, records), random, publisher,
                                alwaysRefused, mode == Mode.PAST_FAILURE, true);
                        delivery.run();
                        past += delivery.pastFailureDeliveries();
                        refused += delivery.pastFailureRefusals();
                    }
                    if (GUARDED && past >= 3) {
                        // Most deliveries past a failure meet a pending record (the rest, one whose failure had in fact
                        // been applied before).
                        assertThat(refused).as("deliveries past the failure point refused").isPositive();
                    }
                }
            }
            deliverCascadesRecords(engine, table, all, random, publisher, alwaysRefused, mode != Mode.TWO_CONSUMERS);
        } finally {
            FAULTS.off();
        }

        // At the stream's end, every derived item must have caught up; SPLIT's watermarks name shards of its own, so
        // it is checked from the scan alone.
        VerificationReport report = new Rebuilder(dynamo, mode == Mode.SPLIT ? null : server.streamsClient(), table,
                derivations, 2).verify();
        assertThat(report.differences()).as("drift for seed %d (%s)", seed, mode).isEmpty();
        assertThat(report.behindItems()).as("derived items behind the stream for seed %d (%s)", seed, mode).isZero();
        assertThat(orphanedMemberships(table)).as("memberships of a deleted team or employee, seed %d (%s)", seed, mode)
                .isEmpty();
        assertThat(unexplainedDerivedItems(table, derivations, all)).as("derived items no record derives").isEmpty();
        Set<String> delivered = new HashSet<>(publisher.publishedIds());
        Set<String> deadLettered = deadLetteredEventIds(table);
        delivered.addAll(deadLettered);
        List<String> expected = expectedEventIds(derivations, all);
        assertThat(expected.stream().filter(id -> !delivered.contains(id)).toList())
                .as("events neither published nor dead-lettered for seed %d (%s)", seed, mode).isEmpty();
        if (mode == Mode.PERMANENT_EVENT_FAILURE) {
            List<String> refusedForGood = expected.stream().filter(id -> Math.floorMod(id.hashCode(), 3) == 0).toList();
            assertThat(deadLettered).containsAll(refusedForGood);
        }
        dynamo.deleteTable(r -> r.tableName(table));
    }

    private static Engine engine(String table, Mode mode, Derivations derivations, RecordingPublisher publisher) {
        Engine.Builder builder = Engine.builder()
                .derivations(derivations)
                .store(new DynamoDbDerivedStore(faulty, table))
                .deadLetters(new DynamoDbDeadLetterSink(faulty, table))
                .publisher(publisher)
                // Long enough to outlive a batch on a busy machine where two consumers compete; short elsewhere, so
                // that a crashed invocation's lease lapses quickly.
                .lease(mode == Mode.TWO_CONSUMERS ? Duration.ofSeconds(10) : Duration.ofMillis(50))
                .eventGiveUp(GUARDED ? 3 : Integer.MAX_VALUE, Duration.ZERO);
        builder.cursors(GUARDED ? new DynamoDbShardCursors(faulty, table) : new Unguarded());
        builder.cascades(StreamDomains.cascades(faulty, table));
        return builder.build();
    }

    /**
     * The records of base items written while the stream was delivered (the memberships the cascades removed), read
     * from the real stream and delivered with the same faults, until nothing new appears.
     */
    private static void deliverCascadesRecords(Engine engine, String table, List<SourceRecord> all, Random random,
                                               RecordingPublisher publisher, Predicate<DomainEvent> alwaysRefused,
                                               boolean crashes) {
        Set<String> seen = new HashSet<>();
        all.forEach(record -> seen.add(record.eventId()));
        for (int round = 0; round < 10; round++) {
            Map<String, List<SourceRecord>> fresh = new LinkedHashMap<>();
            StreamReader.readAll(server.streamsClient(), table, StreamRecords::fromSdk).forEach((shard, records) -> {
                // The echoes of derived writes derive nothing (the engine skips them): only base items are delivered.
                List<SourceRecord> unseen = records.stream()
                        .filter(r -> !seen.contains(r.eventId()) && isBase(r))
                        .toList();
                if (!unseen.isEmpty()) {
                    fresh.put(shard, unseen);
                }
            });
            if (fresh.isEmpty()) {
                return;
            }
            fresh.values().forEach(records -> {
                delivery(records, engineInvoker(engine, records), random, publisher, alwaysRefused, false, crashes).run();
                records.forEach(record -> seen.add(record.eventId()));
                all.addAll(records);
            });
        }
        throw new AssertionError("the stream kept growing: a cascade that never ends");
    }

    private static boolean isBase(SourceRecord record) {
        return record.entityType().flatMap(Domains::entityType).map(type -> !type.isDerived()).orElse(true);
    }

    /** Memberships whose team or employee (that incarnation of it) no longer exists. */
    private static List<Membership> orphanedMemberships(String table) {
        Set<String> parts = new HashSet<>();
        List<Membership> memberships = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            if (Orgs.TEAM.isTypeOf(item)) {
                Team team = Team.fromItem(item);
                parts.add("team/" + team.orgId() + "/" + team.teamId() + "/" + team.incarnation());
            } else if (Orgs.EMPLOYEE.isTypeOf(item)) {
                Employee employee = Employee.fromItem(item);
                parts.add("employee/" + employee.orgId() + "/" + employee.employeeId() + "/" + employee.incarnation());
            } else if (Orgs.MEMBERSHIP.isTypeOf(item)) {
                memberships.add(Membership.fromItem(item));
            }
        });
        return memberships.stream()
                .filter(m -> !parts.contains("team/" + m.orgId() + "/" + m.teamId() + "/" + m.teamIncarnation())
                        || !parts.contains("employee/" + m.orgId() + "/" + m.employeeId() + "/" + m.employeeIncarnation()))
                .toList();
    }

    private static Delivery delivery(List<SourceRecord> records, Delivery.Invoker invoker, Random random,
                                     RecordingPublisher publisher, Predicate<DomainEvent> alwaysRefused,
                                     boolean pastFailure, boolean crashes) {
        return new Delivery(records, invoker, new Random(random.nextLong()), publisher, alwaysRefused, pastFailure,
                crashes, FAULTS);
    }

    private static Delivery.Invoker engineInvoker(Engine engine, List<SourceRecord> records) {
        return (from, to) -> {
            BatchResult result = engine.process(records.subList(from, to));
            return new Delivery.Outcome(result.failedSequenceNumber(), result.refusal().isPresent(),
                    result.derivedWrites() == 0 && result.poison() == 0 && result.eventsPublished() == 0
                            && result.eventsFailed() == 0 && result.eventsDeadLettered() == 0);
        };
    }

    /** The deployment's path: SDK records as Lambda's event classes, the windowed handler, its response. */
    private static Delivery.Invoker handlerInvoker(WindowedStreamHandler handler, String shardId, List<Record> records,
                                                   String streamArn) {
        return (from, to) -> {
            DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
            event.setRecords(SdkToLambdaRecords.records(records.subList(from, to), streamArn));
            event.setShardId(shardId);
            event.setEventSourceArn(streamArn);
            event.setState(Map.of());
            TimeWindowEventResponse response = handler.handleRequest(event, new TestLambdaContext(50));
            assertThat(response.getBatchItemFailures()).hasSizeLessThanOrEqualTo(1);
            return new Delivery.Outcome(response.getBatchItemFailures().stream()
                    .map(TimeWindowEventResponse.BatchItemFailure::getItemIdentifier).findFirst(), false, false);
        };
    }

    /** Two consumers on one shard at the same time, each delivering all of it in its own way (no crashes). */
    private static void twoConsumers(Engine engine, List<SourceRecord> records, Random random,
                                     RecordingPublisher publisher) throws InterruptedException {
        List<Delivery> consumers = List.of(
                delivery(records, engineInvoker(engine, records), random, publisher, event -> false, false, false),
                delivery(records, engineInvoker(engine, records), random, publisher, event -> false, false, false));
        List<Throwable> errors = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (Delivery consumer : consumers) {
            Thread thread = new Thread(() -> {
                try {
                    consumer.run();
                } catch (Throwable e) {
                    synchronized (errors) {
                        errors.add(e);
                    }
                }
            });
            threads.add(thread);
            thread.start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        if (!errors.isEmpty()) {
            throw new AssertionError("a consumer failed", errors.get(0));
        }
    }

    /** A parent shard and its two children, as the records of one real shard re-cut. */
    private record Family(List<SourceRecord> parent, List<SourceRecord> childA, List<SourceRecord> childB) {
    }

    /**
     * Splits each shard at a random record: the records before it stay in a parent shard, the rest go to two child
     * shards by item (an item's records stay in order in one child, as DynamoDB routes them by key).
     */
    private static List<Family> split(Map<String, List<SourceRecord>> stream, Random random) {
        List<Family> families = new ArrayList<>();
        for (Map.Entry<String, List<SourceRecord>> shard : stream.entrySet()) {
            List<SourceRecord> records = shard.getValue();
            int at = random.nextInt(records.size() + 1);
            List<SourceRecord> parent = new ArrayList<>();
            List<SourceRecord> childA = new ArrayList<>();
            List<SourceRecord> childB = new ArrayList<>();
            for (int i = 0; i < records.size(); i++) {
                SourceRecord record = records.get(i);
                if (i < at) {
                    parent.add(reshard(record, shard.getKey() + "-parent"));
                } else if (Math.floorMod(record.keys().hashCode(), 2) == 0) {
                    childA.add(reshard(record, shard.getKey() + "-child-a"));
                } else {
                    childB.add(reshard(record, shard.getKey() + "-child-b"));
                }
            }
            families.add(new Family(parent, childA, childB));
        }
        return families;
    }

    private static SourceRecord reshard(SourceRecord record, String shardId) {
        return new SourceRecord(record.eventId(), record.eventName(), shardId, record.sequenceNumber(),
                record.approximateCreationTime(), record.keys(), record.oldImage(), record.newImage());
    }

    /** The parent completely, then its children one invocation at a time in a random interleaving. */
    private static void deliverFamily(Engine engine, Family family, Random random, RecordingPublisher publisher) {
        delivery(family.parent(), engineInvoker(engine, family.parent()), random, publisher, event -> false, false,
                true).run();
        List<Delivery> children = new ArrayList<>(List.of(
                delivery(family.childA(), engineInvoker(engine, family.childA()), random, publisher, e -> false, false,
                        true),
                delivery(family.childB(), engineInvoker(engine, family.childB()), random, publisher, e -> false, false,
                        true)));
        children.removeIf(Delivery::done);
        while (!children.isEmpty()) {
            Delivery next = children.get(random.nextInt(children.size()));
            next.step();
            if (next.done()) {
                children.remove(next);
            }
        }
    }

    /** Derived items whose key no record's derivation touches: a write that should never have happened. */
    private static List<Key> unexplainedDerivedItems(String table, Derivations derivations, List<SourceRecord> records) {
        Set<Key> touched = new HashSet<>();
        for (SourceRecord record : records) {
            changes(derivations, record).ifPresent(changes -> {
                changes.counterDeltas().keySet().forEach(counter -> touched.add(counter.key()));
                touched.addAll(changes.documents().keySet());
            });
        }
        List<Key> unexplained = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            AttributeValue type = item.get(TableSchema.ENTITY_TYPE);
            if (type != null && Domains.derivedType(type.s()).isPresent() && !touched.contains(Key.of(item))) {
                unexplained.add(Key.of(item));
            }
        });
        return unexplained;
    }

    /** The ids of the events filed as dead letters (a letter's {@code events} attribute). */
    private static Set<String> deadLetteredEventIds(String table) {
        Set<String> ids = new HashSet<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            AttributeValue events = item.get("events");
            if (events != null && "DeadLetter".equals(item.get(TableSchema.ENTITY_TYPE).s())) {
                try {
                    for (JsonNode event : JSON.readTree(events.s())) {
                        ids.add(event.get("id").asText());
                    }
                } catch (java.io.IOException e) {
                    throw new AssertionError("unreadable events of a dead letter: " + events.s(), e);
                }
            }
        });
        return ids;
    }

    /** The ids of the events each readable record announces. */
    private static List<String> expectedEventIds(Derivations derivations, List<SourceRecord> records) {
        List<String> ids = new ArrayList<>();
        for (SourceRecord record : records) {
            changes(derivations, record).ifPresent(changes -> changes.events().stream().map(DomainEvent::id)
                    .forEach(ids::add));
        }
        return ids;
    }

    private static Optional<IntendedChanges> changes(Derivations derivations, SourceRecord record) {
        try {
            return record.entityType().flatMap(Domains::entityType).map(type -> derivations.derive(type,
                    record.eventId(), record.oldImage(), record.newImage()));
        } catch (RuntimeException poison) {
            // Dead-lettered: derives what it can, which the test does not require.
            return Optional.empty();
        }
    }

    /** No guard at all: every claim is granted, nothing is recorded. For showing what the modes catch. */
    private static final class Unguarded implements ShardCursors {
        @Override
        public Claim claim(String shardId, String firstSequence, Lease lease, Instant now) {
            return new Granted(Progress.NONE);
        }

        @Override
        public boolean release(String shardId, Lease lease, Progress progress, Instant now) {
            return true;
        }
    }
}
