package io.tally.stream.engine;

import static io.tally.stream.testing.TestDerivations.partial;
import static io.tally.stream.testing.TestRecords.comment;
import static io.tally.stream.testing.TestRecords.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.tally.core.Key;
import io.tally.core.users.Users;
import io.tally.domains.blog.Post;
import io.tally.domains.blog.PostStatus;
import io.tally.stream.testing.RecordingPublisher;
import io.tally.stream.testing.TestDerivations;
import io.tally.stream.testing.TestRecords;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The write units of a batch's most costly derived write, the size of the largest item it wrote, as a metric. */
class EngineWriteUnitsTest {
    private static final String SHARD = "shardId-00000001714564800000-0a1b2c3d";

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final UnitsStore store = new UnitsStore();
    private final Engine engine = Engine.builder()
            .derivations(TestDerivations.blog())
            .store(store)
            .deadLetters(new InMemoryDeadLetterSink())
            .publisher(new RecordingPublisher())
            .metrics(new StreamMetrics(registry))
            .build();

    @AfterEach
    void closeEngine() {
        engine.close();
    }

    /** An in-memory store that says each write cost the units set for its item (1 for the others). */
    private static final class UnitsStore implements DerivedStore {
        private final InMemoryDerivedStore items = new InMemoryDerivedStore();
        private final Map<Key, Integer> units = new ConcurrentHashMap<>();

        @Override
        public Outcome apply(DerivedWrite write) {
            Outcome outcome = items.apply(write);
            return outcome instanceof Applied ? new Applied(units.getOrDefault(write.key(), 1)) : outcome;
        }
    }

    private DistributionSummary maxWriteUnits() {
        return registry.get(StreamMetrics.MAX_WRITE_UNITS).summary();
    }

    @Test
    void eachBatch_recordsTheWriteUnitsOfItsMostCostlyWrite() {
        TestRecords records = new TestRecords(SHARD);
        Post p1 = post("u1", "p1", "Hello", PostStatus.CREATED);
        records.put(p1.toItem());
        records.put(comment("c1", p1, "u2").toItem());
        records.put(comment("c2", p1, "u2").toItem());
        List<SourceRecord> all = records.records();
        store.units.put(partial(Users.statsKey("u2"), SHARD), 120);

        assertThat(engine.process(all.subList(0, 2)).failedSequenceNumber()).isEmpty();
        store.units.clear();
        assertThat(engine.process(all.subList(2, 3)).failedSequenceNumber()).isEmpty();

        // One value per batch: 120 (u2's stats, the largest of the first batch's items), then 1.
        assertThat(maxWriteUnits().count()).isEqualTo(2);
        assertThat(maxWriteUnits().totalAmount()).isEqualTo(121);
        assertThat(maxWriteUnits().max()).isEqualTo(120);
    }

    @Test
    void storeThatDoesNotSayTheUnits_recordsNothing() {
        Engine quiet = Engine.builder().derivations(TestDerivations.blog()).store(new InMemoryDerivedStore())
                .deadLetters(new InMemoryDeadLetterSink()).publisher(new RecordingPublisher())
                .metrics(new StreamMetrics(registry)).build();
        try (quiet) {
            TestRecords records = new TestRecords(SHARD);
            records.put(post("u1", "p1", "Hello", PostStatus.CREATED).toItem());

            assertThat(quiet.process(records.records()).failedSequenceNumber()).isEmpty();
        }

        assertThat(maxWriteUnits().count()).isZero();
    }
}
