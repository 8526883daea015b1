package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.DynamodbTimeWindowEvent;
import com.amazonaws.services.lambda.runtime.events.TimeWindowEventResponse;
import io.tally.core.Key;
import io.tally.core.PartialKeys;
import io.tally.core.ShardCursorItem;
import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.derive.CascadeRunner;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.core.events.DomainEvent;
import io.tally.stream.SdkToLambdaRecords;
import io.tally.stream.StreamRecords;
import io.tally.stream.WindowedStreamHandler;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DerivedStore;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.EngineBuilder;
import io.tally.stream.engine.ShardCursors;
import io.tally.stream.engine.ShardParents;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.Watermarks;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.WatermarkPruner;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestLambdaContext;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.math.BigInteger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.DefaultRetryStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.StreamSpecification;
import software.amazon.awssdk.services.dynamodb.model.StreamViewType;

/**
 * The invariant under at-least-once delivery, randomized: for each seed, a random workload of base writes
 * (poison items included) is read from the real stream of DynamoDB Local and delivered to the engine the way an
 * event source mapping might on a bad day ({@link Delivery}): random batch boundaries, duplicated and replayed
 * batches, retries from the reported record or any earlier one, throttling and transaction conflicts injected into
 * random SDK calls (before the call, or after it committed), crashes between two calls, an event bus that refuses
 * entries. Each seed also runs one {@link Mode} that breaks an assumption the design relies on or guards.
 *
 * <p>Afterwards ({@link FaultOracle}) no counter may be negative, every figure of the read side must be the one an
 * independent model computes from the base items by DOMAIN.md's definitions ({@link ReadSideModel}), derived data
 * must equal the recomputation from the base items (the {@link Rebuilder}) with no derived item behind the stream, no
 * derived item may exist that no record derives, every event the records announce (as docs/events.md specifies them:
 * {@link EventModel}) must have been published or filed as a dead letter, with its documented detail, none published
 * that no record announces, and none more often than invocations held its record.
 *
 * <p>Cases: {@code -Dtally.fault.cases=N} (default 9, one for each of the first nine modes; the {@code fault} profile of
 * the pom runs seeds 10 to 27, where each of the thirteen modes comes once or twice: the last four, the costlier ones,
 * and {@code COMMON} twice; {@code .ci/run} runs it), {@code -Dtally.fault.mode=NAME} for one mode;
 * {@code -Dtally.fault.unguarded=true} runs without the shard cursor's guard, without giving up on events and without
 * the backfill, to show what the modes catch (docs/exactly-once.md, "How it is checked"). A failing seed reproduces
 * alone, though not always: the injected faults meet the engine's concurrent calls in an order of their own;
 * {@code -Dtally.fault.seed=S} runs seed S {@code tally.fault.cases} times. {@code -Dtally.fault.from=S} starts at seed
 * S instead of 1 (seeds S to {@code tally.fault.cases}), so that a long run can be split in parts or go on from where
 * it stopped; each case logs a line when it passes.
 */
class ExactlyOnceFaultIT {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceFaultIT.class);
    private static final int CASES = Integer.getInteger("tally.fault.cases", 9);
    /** The first seed run (default 1): a long run can go on from where one stopped, or be split in parts. */
    private static final long FROM = Long.getLong("tally.fault.from", 1L);
    private static final String ONLY = System.getProperty("tally.fault.mode", "");
    private static final Long SEED = Long.getLong("tally.fault.seed");
    private static final boolean GUARDED = !Boolean.getBoolean("tally.fault.unguarded");
    private static final Derivations DERIVATIONS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private static final FaultInterceptor FAULTS = new FaultInterceptor();
    /** The pruner's own faults (GENERATIONS): throttling and conflicts, before or after the call; it never crashes. */
    private static final FaultInterceptor PRUNER_FAULTS = new FaultInterceptor();
    /**
     * Watermarks of gone shards an item may keep (docs/exactly-once.md, "The bound, per item"): never read again, and
     * removed only once an item holds more, all at once.
     */
    private static final int KEPT_GONE_WATERMARKS = 2;
    /**
     * The invocations that held each record (by its stream event id) in the case that runs: crashed, refused and
     * duplicate ones included, whoever invoked them. An invocation publishes a record's events at most once, so this
     * bounds how often each event may be published ({@link FaultOracle#assertExact}).
     */
    private static final Map<String, Integer> DELIVERIES = new ConcurrentHashMap<>();
    private static LocalDynamoDbServer server;
    private static DynamoDbClient dynamo;
    private static DynamoDbClient faulty;
    private static DynamoDbClient faultyPruner;

    /** What each case does besides the common faults. */
    enum Mode {
        /** The common faults only. */
        COMMON,
        /** After a reported failure, a delivery that starts after it comes first. */
        PAST_FAILURE,
        /**
         * Two consumers deliver the same shard at the same time, each on its own; now and then another invocation
         * takes the records after a consumer's batch while that batch is in flight.
         */
        TWO_CONSUMERS,
        /**
         * The shard splits: a parent, then two children delivered interleaved in a random order; or, as a replay
         * from outside the mapping, the children before the parent or the three interleaved.
         */
        SPLIT,
        /** Some events are refused for good: they must be given up on, and filed, not block the shard. */
        PERMANENT_EVENT_FAILURE,
        /** Items turn unreadable and readable again (MODIFY from and to garbage), unreadable items change. */
        POISON_MODIFY,
        /** Through {@link WindowedStreamHandler}: Lambda's event classes, the record conversion, the response. */
        HANDLER,
        /**
         * Midway, derived items are corrupted and repaired at the stream's position with records still unprocessed;
         * the engine then resumes from its checkpoint.
         */
        REPAIR_BACKLOG,
        /**
         * The table's first items predate its stream; a backfill at the stream's position, then changes and removals
         * of those items.
         */
        BACKFILL,
        /**
         * Batches of up to 1,000 records, a shard's first and half of the others that large (the mapping's BatchSize
         * is up to 10,000): a workload of well over 1,000 records, coalesced by the engine into one write per derived
         * item per batch, at a fortieth of the common fault rate. Gated with the modes after it to seeds 10 and up (the
         * {@code fault} profile), so that {@code mvn verify}'s seeds 1 to 9 cost what they did.
         */
        LARGE_BATCHES,
        /**
         * Writers run while the processor runs: the workload goes on in a thread of its own while the engine delivers
         * what the stream holds so far, round after round, until the writer is done and the stream is drained.
         */
        CONCURRENT_WRITERS,
        /** The stream's records re-cut by item into dozens to hundreds of shards, delivered interleaved. */
        MANY_SHARDS,
        /**
         * The records delivered as 5 to 8 shard generations, each re-cut by partition key (the partitions split now
         * and then), a generation's shards closing before their children continue, with the watermark pruner between
         * generations on a simulated clock, over a listing without the generations closed a day ago: the partials of
         * gone shards are folded while later generations still write ({@link #generations}).
         */
        GENERATIONS
    }

    /** The largest batch {@link Mode#LARGE_BATCHES} delivers. */
    private static final int LARGE_BATCH = 1_000;

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
                .overrideConfiguration(c -> c.retryStrategy(DefaultRetryStrategy.doNotRetry()).addExecutionInterceptor(FAULTS))
                .build();
        faultyPruner = DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .overrideConfiguration(c -> c.retryStrategy(DefaultRetryStrategy.doNotRetry())
                        .addExecutionInterceptor(PRUNER_FAULTS))
                .build();
    }

    @AfterAll
    static void stop() {
        faultyPruner.close();
        faulty.close();
        dynamo.close();
        server.close();
    }

    static Stream<Arguments> cases() {
        Mode[] modes = Mode.values();
        if (SEED != null) {
            // One seed again and again: the faults hit the engine's concurrent calls in an order of their own each run.
            return Stream.generate(() -> Arguments.of(SEED, modes[(int) ((SEED - 1) % modes.length)])).limit(CASES);
        }
        return LongStream.rangeClosed(FROM, CASES).boxed()
                .map(seed -> Arguments.of(seed, modes[(int) ((seed - 1) % modes.length)]))
                .filter(arguments -> ONLY.isEmpty() || ((Mode) arguments.get()[1]).name().equalsIgnoreCase(ONLY));
    }

    @ParameterizedTest(name = "seed {0}: {1}")
    @MethodSource("cases")
    void anyDelivery_withFaults_endsExactAndLosesNoEvent(long seed, Mode mode) throws InterruptedException {
        Random random = new Random(seed);
        DELIVERIES.clear();
        String table = "fault-" + seed;
        FaultOracle oracle = new FaultOracle(dynamo, table, DERIVATIONS, "seed " + seed + " (" + mode + ")");
        Set<Key> predating = Set.of();
        if (mode == Mode.BACKFILL) {
            dynamo.createTable(TableDefinition.createTableRequest(table).toBuilder()
                    .streamSpecification(StreamSpecification.builder().streamEnabled(false).build()).build());
        } else {
            dynamo.createTable(TableDefinition.createTableRequest(table));
        }
        Workload workload = new Workload(dynamo, table, seed, random.nextBoolean() ? 1.1 : 0, true).with("orgs")
                .with("songs").with("favourites").with("viewmarks");
        if (mode == Mode.BACKFILL) {
            // A history older than the stream: its records are in no stream.
            workload.run(20 + random.nextInt(30));
            // Teams and employees deleted with their members before the stream: cascades the repair must run.
            workload.run("orgs", 8 + random.nextInt(12));
            // Favourites un-collected and tags deleted with their links before the stream: link cascades likewise.
            workload.run("favourites", 8 + random.nextInt(10));
            predating = oracle.derivedKeysOfBaseItems();
            dynamo.updateTable(r -> r.tableName(table).streamSpecification(StreamSpecification.builder()
                    .streamEnabled(true).streamViewType(StreamViewType.NEW_AND_OLD_IMAGES).build()));
        }
        workload.run(10 + random.nextInt(25));
        // Enough organisation steps that most seeds delete a team or an employee with members.
        workload.run("orgs", 8 + random.nextInt(12));
        // And favourites: most seeds un-collect a tagged favourite or delete a tag with links, or rename one.
        workload.run("favourites", 8 + random.nextInt(10));
        // Downloads over several months and days, and refunds.
        workload.run("songs", 10 + random.nextInt(10));
        // Marks counted by views only (ViewMarks): per item, per user and day (shared), per user and item (two
        // fields), a monthly ranking by weight, a projection.
        workload.run("viewmarks", 10 + random.nextInt(20));
        if (mode == Mode.SPLIT) {
            // Longer: more posts and catalogue items whose records fall on both sides of the split.
            workload.run(20 + random.nextInt(30));
        }
        if (mode == Mode.LARGE_BATCHES) {
            // Well over 1,000 records in the shard, of every domain.
            workload.run(900);
            workload.run("orgs", 60);
            workload.run("favourites", 60);
            workload.run("songs", 60);
            workload.run("viewmarks", 60);
        }
        if (mode == Mode.MANY_SHARDS || mode == Mode.GENERATIONS) {
            // More records to spread over the shards.
            workload.run(60 + random.nextInt(60));
        }
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

        RecordingPublisher publisher = new RecordingPublisher();
        Predicate<String> refusedForGood = mode == Mode.PERMANENT_EVENT_FAILURE
                ? id -> Math.floorMod(id.hashCode(), 3) == 0 : id -> false;
        Predicate<DomainEvent> alwaysRefused = event -> refusedForGood.test(event.id());
        // A batch of 1,000 records makes hundreds of calls, and a failed call fails the batch from its record on: at
        // the common rates nearly every large batch would fail near its start, and the shard would crawl.
        double faultRate = (0.02 + random.nextDouble() * 0.15) / (mode == Mode.LARGE_BATCHES ? 40 : 1);
        FAULTS.configure(random, faultRate);
        Map<String, List<SourceRecord>> delivered = stream;
        List<SourceRecord> all = new ArrayList<>();
        try {
            if (mode == Mode.TWO_CONSUMERS) {
                twoConsumers(table, stream, random, publisher);
            } else if (mode == Mode.GENERATIONS) {
                delivered = generations(table, stream, streamArn, random, publisher, faultRate);
            } else {
                try (Engine engine = engine(table, mode, publisher, new DynamoDbDerivedStore(faulty, table))) {
                    switch (mode) {
                        case SPLIT -> SplitShards.split(stream, random).forEach(family -> SplitShards.deliver(
                                family, records -> delivery(engine, records, random, publisher), random));
                        case HANDLER -> {
                            WindowedStreamHandler handler = new WindowedStreamHandler(engine, () -> { });
                            sdk.forEach((shard, records) -> delivery(stream.get(shard),
                                    handlerInvoker(handler, shard, records, streamArn, new Random(random.nextLong())),
                                    random, publisher,
                                    alwaysRefused, false, true).run());
                        }
                        case LARGE_BATCHES -> largeBatches(engine, stream, random, publisher);
                        case CONCURRENT_WRITERS -> delivered = concurrentWriters(engine, table, workload, random,
                                publisher);
                        case MANY_SHARDS -> {
                            delivered = SplitShards.many(stream, 24 + random.nextInt(177));
                            assertThat(delivered).as("shards with records").hasSizeGreaterThanOrEqualTo(20);
                            List<Delivery> shards = new ArrayList<>();
                            delivered.values().forEach(records -> shards.add(delivery(engine, records, random,
                                    publisher)));
                            SplitShards.interleave(shards, random);
                        }
                        case REPAIR_BACKLOG, BACKFILL -> delivered = new RepairMidway(dynamo,
                                server.streamsClient(), table, DERIVATIONS).run(mode == Mode.BACKFILL,
                                GUARDED || mode != Mode.BACKFILL, workload, stream, random,
                                records -> delivery(engine, records, random, publisher), FAULTS::off,
                                () -> FAULTS.configure(random, faultRate));
                        default -> deliverEach(engine, mode, stream, random, publisher, alwaysRefused);
                    }
                }
            }
            all.addAll(delivered.values().stream().flatMap(List::stream).toList());
            try (Engine engine = engine(table, mode, publisher, new DynamoDbDerivedStore(faulty, table))) {
                deliverCascadesRecords(engine, table, all, random, publisher, alwaysRefused,
                        mode != Mode.TWO_CONSUMERS);
            }
        } finally {
            FAULTS.off();
            PRUNER_FAULTS.off();
        }

        // At the stream's end, every derived item must have caught up; the watermarks of SPLIT, MANY_SHARDS and
        // GENERATIONS name shards of their own, so they are checked from the scan alone.
        boolean ownShards = mode == Mode.SPLIT || mode == Mode.MANY_SHARDS || mode == Mode.GENERATIONS;
        oracle.assertExact(ownShards ? null : server.streamsClient(), all, predating,
                publisher.published(), DELIVERIES, refusedForGood);
        dynamo.deleteTable(r -> r.tableName(table));
        // Progress of a long run (the report is written only at its end).
        List<String> published = publisher.publishedIds();
        LOG.info("fault case passed: seed {} ({}): {} records, {} events published {} times", seed, mode, all.size(),
                new HashSet<>(published).size(), published.size());
    }

    private static Engine engine(String table, Mode mode, RecordingPublisher publisher, DerivedStore store) {
        return engine(table, mode, publisher, store, Clock.systemUTC());
    }

    private static Engine engine(String table, Mode mode, RecordingPublisher publisher, DerivedStore store,
                                 Clock clock) {
        return engine(table, mode, publisher, store, clock, ShardParents.NONE);
    }

    private static Engine engine(String table, Mode mode, RecordingPublisher publisher, DerivedStore store,
                                 Clock clock, ShardParents parents) {
        EngineBuilder builder = Engine.builder()
                .parents(parents)
                .clock(clock)
                .derivations(DERIVATIONS)
                .store(store)
                .deadLetters(new DynamoDbDeadLetterSink(faulty, table))
                .publisher(publisher)
                // Long enough to outlive a batch on a busy machine where two consumers compete (a batch takes well
                // under a second there), yet each claim whose answer is lost holds the shard this long, a few times a
                // case; short elsewhere, so that a crashed invocation's lease lapses quickly.
                .lease(mode == Mode.TWO_CONSUMERS ? Duration.ofSeconds(4) : Duration.ofMillis(50))
                .eventGiveUp(GUARDED ? 3 : Integer.MAX_VALUE, Duration.ZERO)
                // A crashed invocation here fails each further call instead of being gone: no pause between them.
                .releaseBackoff(Duration.ZERO);
        builder.cursors(GUARDED ? new DynamoDbShardCursors(faulty, table) : new Unguarded());
        builder.cascades(CascadeRunner.overTable(faulty, table));
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
        return record.entityType().flatMap(DomainRegistry.load()::entityType).map(type -> !type.isDerived()).orElse(true);
    }

    private static Delivery delivery(List<SourceRecord> records, Delivery.Invoker invoker, Random random,
                                     RecordingPublisher publisher, Predicate<DomainEvent> alwaysRefused,
                                     boolean pastFailure, boolean crashes) {
        return new Delivery(records, invoker, new Random(random.nextLong()), publisher, alwaysRefused, pastFailure,
                crashes, FAULTS);
    }

    /** A delivery of one shard by the engine, with crashes, without refusing events for good. */
    private static Delivery delivery(Engine engine, List<SourceRecord> records, Random random,
                                     RecordingPublisher publisher) {
        return delivery(records, engineInvoker(engine, records), random, publisher, event -> false, false, true);
    }

    private static Delivery.Invoker engineInvoker(Engine engine, List<SourceRecord> records) {
        return (from, to) -> {
            counted(records.subList(from, to));
            BatchResult result = engine.process(records.subList(from, to));
            return new Delivery.Outcome(result.failedSequenceNumber(), result.refusal().isPresent(),
                    result.derivedWrites() == 0 && result.poison() == 0 && result.eventsPublished() == 0
                            && result.eventsFailed() == 0 && result.eventsDeadLettered() == 0);
        };
    }

    /** Each shard by one consumer, in batches of up to {@link #LARGE_BATCH} records; one of them that large. */
    private static void largeBatches(Engine engine, Map<String, List<SourceRecord>> stream, Random random,
                                     RecordingPublisher publisher) {
        int largest = 0;
        List<Integer> sizes = new ArrayList<>();
        for (List<SourceRecord> records : stream.values()) {
            sizes.add(records.size());
            Delivery delivery = delivery(engine, records, random, publisher).batchesUpTo(LARGE_BATCH);
            delivery.run();
            largest = Math.max(largest, delivery.largestBatch());
        }
        assertThat(largest).as("the largest batch delivered, of shards of %s records", sizes).isEqualTo(LARGE_BATCH);
    }

    /**
     * The workload goes on in a thread of its own while the engine delivers, with the common faults, the base items'
     * records the stream holds so far, round after round, until the writer is done and a round finds nothing new. In
     * lockstep by rounds, so that the overlap is certain and the writes bounded, not a matter of timing: round r reads
     * the stream (chunk r-1 of the writer's steps is in it), lets the writer write chunk r, delivers, and waits for the
     * chunk to end before round r+1 reads. Within a round the writer's puts and transactions meet the engine's writes
     * and cascades in an order of the threads' own: a seed does not repeat its interleaving exactly.
     *
     * @return the records delivered, by shard
     */
    private static Map<String, List<SourceRecord>> concurrentWriters(Engine engine, String table, Workload workload,
                                                                     Random random, RecordingPublisher publisher)
            throws InterruptedException {
        int chunks = 4 + random.nextInt(3);
        int steps = 10 + random.nextInt(10);
        Semaphore go = new Semaphore(0);
        Semaphore chunkDone = new Semaphore(0);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                for (int chunk = 0; chunk < chunks; chunk++) {
                    go.acquire();
                    try {
                        workload.run(steps);
                    } finally {
                        chunkDone.release();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "fault-writer");
        writer.start();
        Set<String> seen = new HashSet<>();
        Map<String, List<SourceRecord>> delivered = new LinkedHashMap<>();
        try {
            for (int round = 0; ; round++) {
                Map<String, List<SourceRecord>> fresh = new LinkedHashMap<>();
                StreamReader.readAll(server.streamsClient(), table, StreamRecords::fromSdk).forEach((shard, records) -> {
                    List<SourceRecord> unseen = records.stream()
                            .filter(r -> !seen.contains(r.eventId()) && isBase(r))
                            .toList();
                    if (!unseen.isEmpty()) {
                        fresh.put(shard, unseen);
                    }
                });
                boolean writing = round < chunks;
                if (writing) {
                    go.release();
                }
                fresh.forEach((shard, records) -> {
                    delivery(engine, records, random, publisher).run();
                    records.forEach(record -> seen.add(record.eventId()));
                    delivered.computeIfAbsent(shard, k -> new ArrayList<>()).addAll(records);
                });
                if (writing) {
                    chunkDone.acquire();
                } else if (fresh.isEmpty()) {
                    break;
                }
                if (failure.get() != null) {
                    throw new AssertionError("the writer failed", failure.get());
                }
            }
        } finally {
            writer.interrupt();
            writer.join();
        }
        return delivered;
    }

    /**
     * GENERATIONS: the stream's records cut, in stream order, into 5 to 8 generations, each re-cut by partition key
     * into the shards of its partitions (1 to 4 at first; at each new generation, one time in three, every partition
     * splits in two while there are fewer than 32), each generation's shards delivered interleaved with the common
     * faults once the generation before has closed. The records the cascades write while a generation is delivered go to the next generation's
     * shards, in the last one to its own shards again until no new one comes. After each generation the simulated
     * clock (the engine's: its leases and cursors, and the pruner's) moves 12 to 16 hours, the generation closes, and
     * a pass of the watermark pruner runs over a listing that holds the generations closed less than 24 hours ago, on
     * a client of its own that injects throttling and conflicts (before or after the call), its run resumed until the
     * pass completes: at random, then (between the generations) or at a random early invocation of the next generation
     * (while its shards write the items the pass prunes). So from the third generation on, the shards of the first
     * ones are gone while later ones still write: their watermarks and cursors are removed, and the partials of a
     * lineage that ended at a split folded mid-run, which is asserted (a shard of a generation that kept its partitions
     * continues its parent's lineage and partials). At the end a pass without faults must leave no watermark, partial or cursor of a gone
     * shard.
     *
     * @return the records delivered, by synthetic shard
     */
    private static Map<String, List<SourceRecord>> generations(String table, Map<String, List<SourceRecord>> stream,
                                                               String streamArn, Random random,
                                                               RecordingPublisher publisher, double faultRate) {
        SimulatedClock clock = new SimulatedClock();
        ShardGenerations shards = new ShardGenerations(streamArn, table);
        int count = 5 + random.nextInt(4);
        Duration step = Duration.ofHours(12 + random.nextInt(5));
        int segments = 1 + random.nextInt(4);
        int partitions = 1 + random.nextInt(4);
        List<List<SourceRecord>> runs = ShardGenerations.runs(stream, count, random);
        Set<String> seen = new HashSet<>();
        runs.forEach(run -> run.forEach(record -> seen.add(record.eventId())));
        Map<String, List<SourceRecord>> delivered = new LinkedHashMap<>();
        PRUNER_FAULTS.configure(random, faultRate);
        long foldedMidRun = 0;
        // A pass left to the next generation, to run while its shards write.
        boolean passPending = false;
        // Each shard of a generation that kept its partitions continues its parent's lineage (and partials).
        try (Engine engine = engine(table, Mode.GENERATIONS, publisher, new DynamoDbDerivedStore(faulty, table),
                clock, shards::soleParent)) {
            for (int g = 0; g < count; g++) {
                if (g > 0 && partitions < 32 && random.nextInt(3) == 0) {
                    partitions *= 2;
                }
                int generation = shards.open(partitions);
                // The generation's run, then what the cascades wrote since the last generation (later in the stream).
                List<SourceRecord> records = new ArrayList<>(runs.get(g));
                records.addAll(unseenBaseRecords(table, seen));
                int recordsOfGeneration = 0;
                long foldedDuring = 0;
                while (!records.isEmpty()) {
                    recordsOfGeneration += records.size();
                    List<Delivery> deliveries = new ArrayList<>();
                    shards.cut(generation, records).forEach((shard, ofShard) -> {
                        delivered.computeIfAbsent(shard, k -> new ArrayList<>()).addAll(ofShard);
                        deliveries.add(delivery(engine, ofShard, random, publisher));
                    });
                    // One invocation of a random shard at a time; a pending pass at a random one of the first
                    // invocations, while the generation's shards are open and write the items it prunes.
                    int passAt = random.nextInt(1 + records.size() / 8);
                    for (int invocation = 0; deliveries.stream().anyMatch(d -> !d.done()); invocation++) {
                        if (passPending && invocation >= passAt) {
                            foldedDuring += prune(table, shards, clock, segments);
                            passPending = false;
                        }
                        List<Delivery> open = deliveries.stream().filter(d -> !d.done()).toList();
                        open.get(random.nextInt(open.size())).step();
                    }
                    records = g == count - 1 ? unseenBaseRecords(table, seen) : List.of();
                }
                clock.advance(step);
                shards.close(generation, clock.instant());
                // The pass runs now, between the generations, or while the next one is delivered; after the last,
                // now.
                long foldedAfter = 0;
                if (g == count - 1 || random.nextBoolean()) {
                    foldedAfter = prune(table, shards, clock, segments);
                    passPending = false;
                } else {
                    passPending = true;
                }
                foldedMidRun += foldedDuring + (g < count - 1 ? foldedAfter : 0);
                LOG.info("generation {} of {}: {} partitions, {} records, {} generations gone; partials folded: {}"
                        + " by a pass during it, {} by a pass after it", g + 1, count, partitions,
                        recordsOfGeneration, shards.generationsGone(clock.instant()), foldedDuring, foldedAfter);
            }
        }
        assertThat(shards.generationsGone(clock.instant())).as("generations gone from the listing").isPositive();
        // A lineage ends at a split (each child starts its own): its partials are folded once its shards are gone.
        if (shards.splitBefore(count - 2)) {
            assertThat(foldedMidRun).as("partials folded while later generations still wrote").isPositive();
        }
        PRUNER_FAULTS.off();
        prune(table, shards, clock, segments);
        assertThat(leftOfGoneShards(table, shards.gone(clock.instant())))
                .as("watermarks, partials and cursors of gone shards after a pass without faults").isEmpty();
        return delivered;
    }

    /** The base records the real stream holds that are not among {@code seen}, in stream order; they join it. */
    private static List<SourceRecord> unseenBaseRecords(String table, Set<String> seen) {
        List<SourceRecord> unseen = new ArrayList<>();
        StreamReader.readAll(server.streamsClient(), table, StreamRecords::fromSdk).values().forEach(records ->
                records.stream().filter(r -> !seen.contains(r.eventId()) && isBase(r)).forEach(unseen::add));
        unseen.sort(Comparator.comparing(record -> new BigInteger(record.sequenceNumber())));
        unseen.forEach(record -> seen.add(record.eventId()));
        return unseen;
    }

    /**
     * One pass of the watermark pruner over the listing at the clock's time, its run resumed (from the position the
     * pass stored) after each injected fault until the pass completes.
     *
     * @return the partials the pass folded (or that a fold whose answer was lost had folded): nothing else writes
     *         meanwhile
     */
    private static long prune(String table, ShardGenerations shards, Clock clock, int segments) {
        long before = partials(table);
        WatermarkPruner pruner = new WatermarkPruner(faultyPruner, shards.listing(clock.instant()), table, segments,
                clock);
        RuntimeException last = null;
        for (int run = 0; run < 1_000; run++) {
            try {
                if (pruner.resume(Duration.ZERO, () -> true, scanned -> { }).outcome()
                        == WatermarkPruner.Outcome.COMPLETE) {
                    return before - partials(table);
                }
            } catch (WatermarkPruner.Refused e) {
                throw new AssertionError("the pruner refused a listing that holds every shard of the last day", e);
            } catch (RuntimeException e) {
                // An injected fault stopped the run; the next continues the pass where it stopped.
                last = e;
            }
        }
        throw new AssertionError("the pruner's pass did not complete in 1,000 runs; the last run stopped on", last);
    }

    /** How many partials of shared items the table holds. */
    private static long partials(String table) {
        return dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().stream()
                .filter(item -> PartialKeys.isPartial(Key.of(item)))
                .count();
    }

    /**
     * The watermarks, partials and cursors of these shards the table still holds, one line each; an item's watermarks
     * of them only when it holds more than {@link #KEPT_GONE_WATERMARKS}.
     */
    private static List<String> leftOfGoneShards(String table, Set<String> shardIds) {
        Set<String> tokens = new HashSet<>();
        shardIds.forEach(id -> tokens.add(Watermarks.token(id)));
        List<String> left = new ArrayList<>();
        dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().forEach(item -> {
            Key key = Key.of(item);
            // A partial is of gone shards when every watermark on it is (its lineage may go on in a live shard).
            List<String> marks = item.keySet().stream().filter(Watermarks::isWatermark)
                    .map(name -> name.substring(Watermarks.PREFIX.length())).toList();
            if (PartialKeys.isPartial(key) && !marks.isEmpty() && tokens.containsAll(marks)) {
                left.add("partial " + key);
            }
            if (key.pk().startsWith(ShardCursorItem.PREFIX)
                    && tokens.contains(key.pk().substring(ShardCursorItem.PREFIX.length()))) {
                left.add("cursor " + key);
            }
            List<String> gone = item.keySet().stream()
                    .filter(name -> Watermarks.isWatermark(name)
                            && tokens.contains(name.substring(Watermarks.PREFIX.length())))
                    .toList();
            if (gone.size() > KEPT_GONE_WATERMARKS) {
                gone.forEach(name -> left.add("watermark " + name + " on " + key));
            }
        });
        return left;
    }

    /**
     * Real time moved on by the simulation: leases still lapse as the engine's calls take time, and whole generations
     * pass in an instant.
     */
    private static final class SimulatedClock extends Clock {
        private volatile Duration offset = Duration.ZERO;

        void advance(Duration duration) {
            offset = offset.plus(duration);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return Instant.now().plus(offset);
        }
    }

    /** Counts one more invocation that holds each of these records. */
    private static void counted(List<SourceRecord> batch) {
        batch.forEach(record -> DELIVERIES.merge(record.eventId(), 1, Integer::sum));
    }

    /** Each shard by one consumer; PAST_FAILURE's consumer delivers past a reported failure now and then. */
    private static void deliverEach(Engine engine, Mode mode, Map<String, List<SourceRecord>> stream, Random random,
                                    RecordingPublisher publisher, Predicate<DomainEvent> alwaysRefused) {
        int past = 0;
        int refused = 0;
        for (List<SourceRecord> records : stream.values()) {
            Delivery delivery = delivery(records, engineInvoker(engine, records), random, publisher, alwaysRefused,
                    mode == Mode.PAST_FAILURE, true);
            delivery.run();
            past += delivery.pastFailureDeliveries();
            refused += delivery.pastFailureRefusals();
        }
        if (GUARDED && past >= 3) {
            // Most deliveries past a failure meet a pending record (the rest, one whose failure had in fact been
            // applied before).
            assertThat(refused).as("deliveries past the failure point refused").isPositive();
        }
    }

    /**
     * The deployment's path: SDK records as Lambda's event classes, the windowed handler, its response, and the
     * window's state as Lambda keeps it: the state a response returns goes to the shard's next invocation (a response
     * lost to a crash, or an invocation that throws, leaves the state as it was); now and then a window ends, with a
     * final invocation without records or with the batch, and the next window starts with an empty state.
     */
    private static Delivery.Invoker handlerInvoker(WindowedStreamHandler handler, String shardId, List<Record> records,
                                                   String streamArn, Random random) {
        AtomicReference<Map<String, String>> state = new AtomicReference<>(Map.of());
        return (from, to) -> {
            if (random.nextInt(12) == 0) {
                invokeHandler(handler, shardId, List.of(), streamArn, true, state);
            }
            counted(records.subList(from, to).stream().map(record -> StreamRecords.fromSdk(shardId, record)).toList());
            TimeWindowEventResponse response = invokeHandler(handler, shardId, records.subList(from, to), streamArn,
                    random.nextInt(12) == 0, state);
            assertThat(response.getBatchItemFailures()).hasSizeLessThanOrEqualTo(1);
            return new Delivery.Outcome(response.getBatchItemFailures().stream()
                    .map(TimeWindowEventResponse.BatchItemFailure::getItemIdentifier).findFirst(), false, false);
        };
    }

    private static TimeWindowEventResponse invokeHandler(WindowedStreamHandler handler, String shardId,
                                                         List<Record> records, String streamArn, boolean last,
                                                         AtomicReference<Map<String, String>> state) {
        DynamodbTimeWindowEvent event = new DynamodbTimeWindowEvent();
        event.setRecords(SdkToLambdaRecords.records(records, streamArn));
        event.setShardId(shardId);
        event.setEventSourceArn(streamArn);
        event.setState(new HashMap<>(state.get()));
        event.setIsFinalInvokeForWindow(last);
        TimeWindowEventResponse response = handler.handleRequest(event, new TestLambdaContext(50));
        if (!FAULTS.crashed()) {
            state.set(Map.copyOf(response.getState()));
        }
        return response;
    }

    /**
     * Two consumers (two functions, each with its engine) deliver each shard at the same time, each on its own, in
     * order and without crashes. Now and then, while a consumer's batch has been admitted and nothing of it is
     * written yet, another invocation takes the records that follow that batch, as a second mapping started at the tip
     * or a ParallelizationFactor above 1 would: that batch must be refused (the shard is held), or its writes move
     * watermarks past records of the batch in flight, which are then refused as applied: lost. (Consumers in order
     * cannot lose a record even without the cursor: every batch of theirs starts after records that are applied.)
     */
    private static void twoConsumers(String table, Map<String, List<SourceRecord>> stream, Random random,
                                     RecordingPublisher publisher) throws InterruptedException {
        List<InFlightHook> stores = List.of(new InFlightHook(new DynamoDbDerivedStore(faulty, table)),
                new InFlightHook(new DynamoDbDerivedStore(faulty, table)));
        List<Delivery.Outcome> overlapping = Collections.synchronizedList(new ArrayList<>());
        // The overlapping invocations have an engine (a function instance) of their own: they run while a consumer's
        // batch waits for them.
        try (Engine first = engine(table, Mode.TWO_CONSUMERS, publisher, stores.get(0));
             Engine second = engine(table, Mode.TWO_CONSUMERS, publisher, stores.get(1));
             Engine third = engine(table, Mode.TWO_CONSUMERS, publisher, new DynamoDbDerivedStore(faulty, table))) {
            List<Engine> engines = List.of(first, second);
            for (List<SourceRecord> records : stream.values()) {
                List<Delivery> consumers = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    Delivery.Invoker own = engineInvoker(engines.get(i), records);
                    Delivery.Invoker other = engineInvoker(third, records);
                    Delivery.Invoker invoker = overlapped(own, stores.get(i), other, records.size(),
                            new Random(random.nextLong()), overlapping);
                    consumers.add(delivery(records, invoker, random, publisher, event -> false, false, false));
                }
                runConcurrently(consumers);
            }
        }
        if (GUARDED) {
            assertThat(overlapping).as("batches taken while the shard's batch before them was in flight")
                    .allSatisfy(outcome -> assertThat(outcome.refused() || outcome.idle())
                            .as("refused (the shard is held) or with nothing to do: %s", outcome).isTrue());
        }
    }

    /** {@code own}, which in every other invocation has {@code other} take the records after its batch in flight. */
    private static Delivery.Invoker overlapped(Delivery.Invoker own, InFlightHook store, Delivery.Invoker other,
                                               int size, Random dice, List<Delivery.Outcome> outcomes) {
        return (from, to) -> {
            if (to < size && dice.nextBoolean()) {
                int end = Math.min(size, to + 1 + dice.nextInt(30));
                store.arm(() -> {
                    try {
                        outcomes.add(other.invoke(to, end));
                    } catch (RuntimeException e) {
                        outcomes.add(new Delivery.Outcome(Optional.empty(), false, false));
                    }
                });
            }
            try {
                return own.invoke(from, to);
            } finally {
                store.disarm();
            }
        };
    }

    private static void runConcurrently(List<Delivery> consumers) throws InterruptedException {
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

    /** No guard at all: every claim is granted, nothing is recorded. For showing what the modes catch. */
    private static final class Unguarded implements ShardCursors {
        @Override
        public String lineage(String shardId, ShardParents parents) {
            return shardId;
        }

        @Override
        public Claim claim(String shardId, String firstSequence, String lastSequence, Lease lease, Chain chain,
                           Instant now) {
            return new Granted(Progress.NONE);
        }

        @Override
        public boolean release(String shardId, Lease lease, Progress progress, Instant now) {
            return true;
        }
    }
}
