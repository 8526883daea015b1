package io.tally.stream.fault;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.DeadLetterItem;
import io.tally.core.ShardSettings;
import io.tally.core.TableSchema;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.StreamRecords;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.DynamoDbDeadLetterSink;
import io.tally.stream.engine.DynamoDbDerivedStore;
import io.tally.stream.engine.DynamoDbShardCursors;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.engine.StreamMetrics;
import io.tally.stream.rebuild.EventRepublisher;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.testkit.LocalDynamoDb;
import io.tally.testkit.MutableClock;
import io.tally.testkit.StreamReader;
import io.tally.testkit.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * An event bus that fails every entry for a while, with the engine's production give-up settings (5 attempts, 10
 * minutes) and a simulated clock: records keep arriving on DynamoDB Local's real stream, a poller delivers them as the
 * event source mapping would (every 10 simulated seconds, from the last reported failure), and the shard must keep
 * moving. A bus that refuses every entry for good for an hour (as EventBridge answers a function whose role lost
 * {@code events:PutEvents}, or a deleted bus) holds it no longer than the polling; one that throttles every entry for 40
 * minutes, with the batches spread over 64 execution environments as Lambda may run them, holds it once for the
 * give-up period. Afterwards every event the records announce is either published once or in the dead letters, and
 * republishing the dead letters ({@link EventRepublisher}, what {@code tally-local dead-letters republish-events} runs)
 * publishes each of them once, and nothing on a second run.
 */
class EventOutageIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Derivations DERIVATIONS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private static final Duration POLL = Duration.ofSeconds(10);
    private static final Duration OUTAGE = Duration.ofHours(1);
    /** The records arrive evenly over this span, which outlasts the outage. */
    private static final Duration ARRIVALS = Duration.ofMinutes(75);
    private static final int BATCH_SIZE = 100;
    /**
     * The batch size of the throttling case: more records arrive in a give-up period than a batch holds (about 30
     * against 10), as with the deployment's batches of 1,000 at the 10 records a second of the probe of issue 38
     * (6,000 a period), so that a shard held once per give-up period falls behind.
     */
    private static final int SMALL_BATCH_SIZE = 10;
    /** The engine's default give-up period for events. */
    private static final Duration GIVE_UP = Duration.ofMinutes(10);
    /**
     * As many execution environments as the probe of issue 38 had: taken in turn, each runs at most one batch in 640
     * simulated seconds, longer than the give-up period, so none would know of the outage from its own memory.
     */
    private static final int ENVIRONMENTS = 64;

    @Test
    void busRefusingEverythingForAnHour_neverHoldsTheShard_andEveryEventIsPublishedOnceAfterTheRepublish() {
        DynamoDbClient dynamo = LocalDynamoDb.client();
        String table = LocalDynamoDb.createTable("outage");
        new Workload(dynamo, table, 29, 0, false).run(150);
        Map<String, List<SourceRecord>> stream = StreamReader.readAll(LocalDynamoDb.streamsClient(), table,
                StreamRecords::fromSdk);
        List<SourceRecord> all = stream.values().stream().flatMap(List::stream).toList();
        FaultOracle oracle = new FaultOracle(dynamo, table, DERIVATIONS, "event outage");
        List<String> expected = oracle.expectedEventIds(all);
        assertThat(all).as("records").hasSizeGreaterThan(150);
        assertThat(expected).as("events the records announce").hasSizeGreaterThan(150);

        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
        Instant start = clock.instant();
        Instant outageEnds = start.plus(OUTAGE);
        RecordingPublisher publisher = new RecordingPublisher();
        publisher.refuseForGood(event -> clock.instant().isBefore(outageEnds));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Run run = deliver(stream, BATCH_SIZE, environments(1, dynamo, table, publisher, registry, clock), clock,
                outageEnds);

        // The shard kept moving while the bus refused: no batch waited for the give-up rule's 10 minutes.
        assertThat(run.maxLag()).as("largest lag of the shard (simulated)").isLessThanOrEqualTo(POLL.multipliedBy(2));
        assertThat(run.acknowledgedDuringOutage()).as("records acknowledged while the bus refused everything")
                .isGreaterThan(all.size() / 2);
        Set<String> deadLettered = assertPublishedOnceOrDeadLettered(dynamo, table, oracle, all, expected, publisher,
                registry, run);

        // The bus works again: the operator republishes the letters, twice.
        Function<String, io.tally.stream.events.EventPublisher> publishers = source -> publisher;
        EventRepublisher republisher = new EventRepublisher(dynamo, table, publishers, RecordingPublisher.SOURCE,
                clock);
        EventRepublisher.Report first = republisher.republish(letters(dynamo, table));
        EventRepublisher.Report second = republisher.republish(letters(dynamo, table));

        assertThat(first.failed()).isEmpty();
        assertThat(first.republished()).isEqualTo(deadLettered.size());
        assertThat(second.republished()).isZero();
        assertThat(second.alreadyRepublished()).isEqualTo(deadLettered.size());
        assertThat(publisher.publishedIds()).as("every event once").doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(new HashSet<>(expected));
        // Republished under their own ids, which subscribers drop duplicates by.
        assertThat(publisher.published()).filteredOn(event -> deadLettered.contains(event.id()))
                .allSatisfy(event -> assertThat(event.detail().get("eventId")).isEqualTo(event.id()));
    }

    @Test
    void busThrottlingEverythingFor40Minutes_inManyExecutionEnvironments_holdsTheShardOnceForTheGiveUpPeriod() {
        DynamoDbClient dynamo = LocalDynamoDb.client();
        String table = LocalDynamoDb.createTable("throttled");
        new Workload(dynamo, table, 31, 0, false).run(150);
        Map<String, List<SourceRecord>> stream = StreamReader.readAll(LocalDynamoDb.streamsClient(), table,
                StreamRecords::fromSdk);
        List<SourceRecord> all = stream.values().stream().flatMap(List::stream).toList();
        FaultOracle oracle = new FaultOracle(dynamo, table, DERIVATIONS, "throttling outage");
        List<String> expected = oracle.expectedEventIds(all);

        MutableClock clock = new MutableClock(Instant.parse("2026-03-01T12:00:00Z"));
        Instant outageEnds = clock.instant().plus(Duration.ofMinutes(40));
        RecordingPublisher publisher = new RecordingPublisher();
        // Throttling: retryable, so the first failing record waits the give-up rule (5 batches over 10 minutes).
        publisher.refuse(event -> clock.instant().isBefore(outageEnds));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Run run = deliver(stream, SMALL_BATCH_SIZE, environments(ENVIRONMENTS, dynamo, table, publisher, registry,
                clock), clock, outageEnds);

        // The first failing record waits the give-up period; after it, the outage is in the shard's cursor, so the
        // environment of each later batch files its failing events at once. Kept in one environment's memory, the
        // next batch's environment knew nothing of it and held the next failing record for the period again: the
        // shard moved one batch per period and the lag grew toward the length of the outage.
        List<String> reasons = letters(dynamo, table).stream().map(letter -> letter.get("reason").s()).toList();
        assertThat(reasons).as("letters given up on after the attempts and the period: once per outage")
                .filteredOn(reason -> reason.contains("given up after")).hasSize(1);
        assertThat(reasons).as("letters filed at once, in the outage")
                .anyMatch(reason -> reason.contains("given up at once"));
        assertThat(run.maxLag()).as("largest lag of the shard (simulated)")
                .isGreaterThanOrEqualTo(GIVE_UP)
                .isLessThanOrEqualTo(GIVE_UP.plus(POLL.multipliedBy(2)));
        assertThat(run.acknowledgedDuringOutage()).as("records acknowledged while the bus throttled everything")
                .isGreaterThan(all.size() / 3);
        Set<String> deadLettered = assertPublishedOnceOrDeadLettered(dynamo, table, oracle, all, expected, publisher,
                registry, run);
        assertThat(deadLettered).as("events dead-lettered").hasSizeLessThan(expected.size());
    }

    /** The engines of {@code count} execution environments of the function: one table, the production settings. */
    private static List<Engine> environments(int count, DynamoDbClient dynamo, String table,
                                             RecordingPublisher publisher, SimpleMeterRegistry registry,
                                             MutableClock clock) {
        List<Engine> engines = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            // The production settings: no eventGiveUp(...) here. Few writer threads: there are many engines.
            engines.add(Engine.builder()
                    .derivations(DERIVATIONS)
                    .store(new DynamoDbDerivedStore(dynamo, table))
                    .deadLetters(new DynamoDbDeadLetterSink(dynamo, table, clock))
                    .cursors(new DynamoDbShardCursors(dynamo, table))
                    .publisher(publisher)
                    .metrics(new StreamMetrics(registry))
                    .clock(clock)
                    .writeConcurrency(count == 1 ? Engine.DEFAULT_WRITE_CONCURRENCY : 2)
                    .build());
        }
        return engines;
    }

    /**
     * @param maxLag                   the largest lag of a shard seen at a poll
     * @param acknowledgedDuringOutage the records acknowledged before the outage ended
     * @param deliveries               for the oracle's bound on duplicate events: the invocations whose batch held
     *                                 each record
     */
    private record Run(Duration maxLag, int acknowledgedDuringOutage, Map<String, Integer> deliveries) {
    }

    /**
     * Delivers every shard as the event source mapping would, in batches of at most {@code batchSize} records, each
     * batch in the next of the {@code environments} in turn; closes them.
     */
    private static Run deliver(Map<String, List<SourceRecord>> stream, int batchSize, List<Engine> environments,
                               MutableClock clock, Instant outageEnds) {
        Instant start = clock.instant();
        Duration maxLag = Duration.ZERO;
        int acknowledgedDuringOutage = 0;
        Map<String, Integer> deliveries = new HashMap<>();
        int batches = 0;
        try {
            for (List<SourceRecord> records : stream.values()) {
                Shard shard = new Shard(records, start, batchSize);
                while (!shard.done()) {
                    clock.advance(POLL);
                    maxLag = max(maxLag, shard.lag(clock.instant()));
                    List<SourceRecord> batch = shard.available(clock.instant());
                    if (batch.isEmpty()) {
                        continue;
                    }
                    batch.forEach(record -> deliveries.merge(record.eventId(), 1, Integer::sum));
                    BatchResult result = environments.get(batches++ % environments.size()).process(batch);
                    int moved = shard.acknowledge(batch.size(), result);
                    if (clock.instant().isBefore(outageEnds)) {
                        acknowledgedDuringOutage += moved;
                    }
                }
            }
        } finally {
            environments.forEach(Engine::close);
        }
        return new Run(maxLag, acknowledgedDuringOutage, deliveries);
    }

    /**
     * Every event the records announce is published exactly once or in the dead letters, never both, never neither;
     * the derived data is exact.
     *
     * @return the ids of the events dead-lettered
     */
    private static Set<String> assertPublishedOnceOrDeadLettered(DynamoDbClient dynamo, String table,
                                                                 FaultOracle oracle, List<SourceRecord> all,
                                                                 List<String> expected, RecordingPublisher publisher,
                                                                 SimpleMeterRegistry registry, Run run) {
        Set<String> deadLettered = deadLetteredEventIds(dynamo, table);
        Set<String> published = new HashSet<>(publisher.publishedIds());
        assertThat(deadLettered).as("events of the outage, dead-lettered").isNotEmpty();
        assertThat(registry.counter(StreamMetrics.EVENTS_DEAD_LETTERED).count()).isEqualTo(deadLettered.size());
        assertThat(publisher.publishedIds()).doesNotHaveDuplicates();
        assertThat(published).doesNotContainAnyElementsOf(deadLettered);
        oracle.assertExact(LocalDynamoDb.streamsClient(), all, Set.of(), publisher.published(), run.deliveries(),
                id -> false);
        assertThat(union(published, deadLettered)).containsExactlyInAnyOrderElementsOf(new HashSet<>(expected));
        return deadLettered;
    }

    /** One shard as the event source mapping delivers it: from its checkpoint, what has arrived, a batch at a time. */
    private static final class Shard {
        private final List<SourceRecord> records;
        private final List<Instant> arrivals = new ArrayList<>();
        private final int batchSize;
        private int checkpoint;

        Shard(List<SourceRecord> records, Instant start, int batchSize) {
            this.records = records;
            this.batchSize = batchSize;
            Duration spacing = ARRIVALS.dividedBy(Math.max(1, records.size()));
            for (int i = 0; i < records.size(); i++) {
                arrivals.add(start.plus(spacing.multipliedBy(i + 1L)));
            }
        }

        boolean done() {
            return checkpoint == records.size();
        }

        /** How long the oldest record not yet acknowledged has waited (zero when none has arrived). */
        Duration lag(Instant now) {
            if (done() || arrivals.get(checkpoint).isAfter(now)) {
                return Duration.ZERO;
            }
            return Duration.between(arrivals.get(checkpoint), now);
        }

        List<SourceRecord> available(Instant now) {
            int end = checkpoint;
            while (end < records.size() && end - checkpoint < batchSize && !arrivals.get(end).isAfter(now)) {
                end++;
            }
            return records.subList(checkpoint, end);
        }

        /** Moves the checkpoint to the reported failure, or past the batch; returns the records acknowledged. */
        int acknowledge(int batchSize, BatchResult result) {
            int before = checkpoint;
            if (result.refusal().isPresent()) {
                return 0;
            }
            if (result.failedSequenceNumber().isEmpty()) {
                checkpoint += batchSize;
            } else {
                String failed = result.failedSequenceNumber().get();
                while (!records.get(checkpoint).sequenceNumber().equals(failed)) {
                    checkpoint++;
                }
            }
            return checkpoint - before;
        }
    }

    private static Set<String> deadLetteredEventIds(DynamoDbClient dynamo, String table) {
        Set<String> ids = new HashSet<>();
        for (Map<String, AttributeValue> letter : letters(dynamo, table)) {
            try {
                for (JsonNode event : JSON.readTree(letter.get("events").s())) {
                    ids.add(event.get("id").asText());
                }
            } catch (java.io.IOException e) {
                throw new AssertionError("unreadable events of a dead letter", e);
            }
        }
        return ids;
    }

    /** The letters of unpublished events in the table. */
    private static List<Map<String, AttributeValue>> letters(DynamoDbClient dynamo, String table) {
        return dynamo.scanPaginator(r -> r.tableName(table).consistentRead(true)).items().stream()
                .filter(item -> item.get(TableSchema.PK).s().startsWith(DeadLetterItem.PREFIX))
                .filter(item -> item.containsKey("events"))
                .collect(Collectors.toList());
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> union = new HashSet<>(a);
        union.addAll(b);
        return union;
    }

    private static Duration max(Duration a, Duration b) {
        return a.compareTo(b) >= 0 ? a : b;
    }
}
