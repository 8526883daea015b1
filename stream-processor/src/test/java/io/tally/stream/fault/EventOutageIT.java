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
 * An event bus that refuses every entry for an hour (as EventBridge answers a function whose role lost
 * {@code events:PutEvents}, or a deleted bus), with the engine's production give-up settings (5 attempts, 10 minutes)
 * and a simulated clock: records keep arriving on DynamoDB Local's real stream, a poller delivers them as the event
 * source mapping would (every 10 simulated seconds, from the last reported failure), and the shard must keep moving,
 * its lag bounded by the polling, not by the give-up rule. Afterwards every event the records announce is either
 * published once or in the dead letters, and republishing the dead letters ({@link EventRepublisher}, what
 * {@code tally-local dead-letters republish-events} runs) publishes each of them once, and nothing on a second run.
 */
class EventOutageIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Derivations DERIVATIONS = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
    private static final Duration POLL = Duration.ofSeconds(10);
    private static final Duration OUTAGE = Duration.ofHours(1);
    /** The records arrive evenly over this span, which outlasts the outage. */
    private static final Duration ARRIVALS = Duration.ofMinutes(75);
    private static final int BATCH_SIZE = 100;

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
        Duration maxLag = Duration.ZERO;
        int acknowledgedDuringOutage = 0;
        // For the oracle's bound on duplicate events: the invocations whose batch held each record.
        Map<String, Integer> deliveries = new HashMap<>();
        // The production settings: no eventGiveUp(...) here.
        try (Engine engine = Engine.builder()
                .derivations(DERIVATIONS)
                .store(new DynamoDbDerivedStore(dynamo, table))
                .deadLetters(new DynamoDbDeadLetterSink(dynamo, table, clock))
                .cursors(new DynamoDbShardCursors(dynamo, table))
                .publisher(publisher)
                .metrics(new StreamMetrics(registry))
                .clock(clock)
                .build()) {
            for (List<SourceRecord> records : stream.values()) {
                Shard shard = new Shard(records, start);
                while (!shard.done()) {
                    clock.advance(POLL);
                    maxLag = max(maxLag, shard.lag(clock.instant()));
                    List<SourceRecord> batch = shard.available(clock.instant());
                    if (batch.isEmpty()) {
                        continue;
                    }
                    batch.forEach(record -> deliveries.merge(record.eventId(), 1, Integer::sum));
                    BatchResult result = engine.process(batch);
                    int moved = shard.acknowledge(batch.size(), result);
                    if (clock.instant().isBefore(outageEnds)) {
                        acknowledgedDuringOutage += moved;
                    }
                }
            }
        }

        // The shard kept moving while the bus refused: no batch waited for the give-up rule's 10 minutes.
        assertThat(maxLag).as("largest lag of the shard (simulated)").isLessThanOrEqualTo(POLL.multipliedBy(2));
        assertThat(acknowledgedDuringOutage).as("records acknowledged while the bus refused everything")
                .isGreaterThan(all.size() / 2);
        Set<String> deadLettered = deadLetteredEventIds(dynamo, table);
        Set<String> published = new HashSet<>(publisher.publishedIds());
        assertThat(deadLettered).as("events of the outage, dead-lettered").isNotEmpty();
        assertThat(registry.counter(StreamMetrics.EVENTS_DEAD_LETTERED).count()).isEqualTo(deadLettered.size());
        // Exactly once, or in the dead letters: never both, never neither.
        assertThat(publisher.publishedIds()).doesNotHaveDuplicates();
        assertThat(published).doesNotContainAnyElementsOf(deadLettered);
        oracle.assertExact(LocalDynamoDb.streamsClient(), all, Set.of(), publisher.published(), deliveries,
                id -> false);
        assertThat(union(published, deadLettered)).containsExactlyInAnyOrderElementsOf(new HashSet<>(expected));

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

    /** One shard as the event source mapping delivers it: from its checkpoint, what has arrived, a batch at a time. */
    private static final class Shard {
        private final List<SourceRecord> records;
        private final List<Instant> arrivals = new ArrayList<>();
        private int checkpoint;

        Shard(List<SourceRecord> records, Instant start) {
            this.records = records;
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
            while (end < records.size() && end - checkpoint < BATCH_SIZE && !arrivals.get(end).isAfter(now)) {
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
