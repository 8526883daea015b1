package io.tally.stream.scale;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.TableDefinition;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardCursors;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.Rebuilder;
import io.tally.stream.rebuild.RepairReport;
import io.tally.stream.rebuild.WatermarkPruner;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.MutableClock;
import io.tally.testkit.Workload;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Issue 38's proof at scale: the workload of every domain through 1,000 synthetic partitions and 10 shard generations
 * (each partition's shard closes every 4 simulated hours and a child continues it), one record a batch as at 1,000
 * writes a second spread over 1,000 partitions, the real engine, cursors, dead-letter sink and derived store on
 * DynamoDB Local, and the watermark pruner between generations over a listing that holds the shards of the stream's
 * last 24 hours (so the shards of the first generations go: their watermarks are removed, and the partials whose
 * shards are all gone folded; each child continues its parent's lineage and partials). At the end the figures
 * must be exact (the independent read-side model and the rebuild's verification agree with the table, and a repair
 * finds nothing to write), and the bounds docs/exactly-once.md states must hold: a partial carries the watermarks of
 * one lineage's shards within the retention and two of gone shards at most,
 * no item carries more watermarks than the shards of its partitions within the retention and two of gone shards, no
 * item exceeds the stated size, and Tally's write units per record stay within twice the floor: derived writes, the
 * shard cursor's one write a batch (its claim handed over from batch to batch as the windowed handler does, released
 * by the last invocation of a window of {@value #WINDOW_BATCHES} batches and of the shard's life), the pruner's folds
 * and removals ({@link SteadyState}: the rates of the workload, from the units measured here).
 * Prints one line: {@code SCALE partitions=P generations=G max-item-bytes=N wu-per-record=X exact=true|false}.
 * About a minute: tagged {@code scale}, run by the fault profile (.ci/run), not by the README's {@code mvn verify}.
 */
@Tag("scale")
class ScaleSimulationIT {
    static final int PARTITIONS = 1_000;
    static final int GENERATIONS = 10;
    /** Workload steps per generation (each one or a few base writes). */
    static final int STEPS_PER_GENERATION = 220;
    static final Duration GENERATION = Duration.ofHours(4);
    /**
     * The most partitions whose records change one item that is not shared: a song's chart entry ({@code SongMonth}),
     * changed by the song's 10 download partitions and its own (docs/exactly-once.md, "Bounded bookkeeping").
     */
    static final int MOST_PARTITIONS_OF_AN_ITEM = 11;
    /** The size bound the documentation states for the seed domains' items at this workload (bytes). */
    static final int MAX_ITEM_BYTES = 8 * 1024;
    static final Instant T0 = Instant.parse("2026-11-02T00:00:00Z");
    /** One-record batches a tumbling window holds at a batch a second per shard (TumblingWindowInSeconds: 60). */
    static final int WINDOW_BATCHES = 60;

    /** The final invocation of a shard's window: it releases the claim handed over, if there is one. */
    private static boolean endWindow(Engine engine, String shard, Map<String, ShardCursors.Handover> handovers) {
        ShardCursors.Handover open = handovers.remove(shard);
        if (open != null) {
            assertThat(engine.releaseHandover(shard, open)).as("release of %s's claim", shard).isTrue();
        }
        return open != null;
    }

    @Test
    void aThousandPartitionsThroughTenGenerations_everyDomain_prunedBetween_exactAndWithinTheBounds() {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            WriteUnits units = new WriteUnits();
            DynamoDbClient plain = server.client();
            DynamoDbClient counted = server.client(units);
            String table = "scale";
            plain.createTable(TableDefinition.createTableRequest(table));
            MutableClock clock = new MutableClock(T0);
            Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
            SyntheticStream stream = new SyntheticStream(server.streamsClient(), table, PARTITIONS);
            ScaleFloor floor = new ScaleFloor(derivations);
            Workload workload = new Workload(plain, table, 38, 1.1, false);
            int delivered = 0;
            long folded = 0;
            int releases = 0;
            int shardsClosed = 0;

            try (Engine engine = ScaleRuns.engine(counted, plain, table, derivations, clock,
                    stream::soleParent)) {
                for (int generation = 0; generation < GENERATIONS; generation++) {
                    workload.run(STEPS_PER_GENERATION);
                    // Each shard's claim is handed over from batch to batch as the windowed handler does, and released
                    // by the last invocation of each window of WINDOW_BATCHES batches, and of the shard's last window.
                    Map<String, ShardCursors.Handover> handovers = new HashMap<>();
                    Map<String, Integer> inWindow = new HashMap<>();
                    // Cascades write base items in turn: deliver until the stream has nothing new.
                    for (Map<String, List<SourceRecord>> shards = stream.next(generation); !shards.isEmpty();
                         shards = stream.next(generation)) {
                        for (Map.Entry<String, List<SourceRecord>> shard : shards.entrySet()) {
                            for (SourceRecord record : shard.getValue()) {
                                BatchResult result = engine.process(List.of(record), new ShardCursors.Lease(
                                        UUID.randomUUID().toString(), clock.instant().plus(Duration.ofMinutes(1))),
                                        new ShardCursors.Chain(handovers.get(shard.getKey()), true));
                                assertThat(result.failedSequenceNumber()).as("record %s", record.eventId()).isEmpty();
                                handovers.put(shard.getKey(), result.handover().orElse(null));
                                if (inWindow.merge(shard.getKey(), 1, Integer::sum) == WINDOW_BATCHES) {
                                    releases += endWindow(engine, shard.getKey(), handovers) ? 1 : 0;
                                    inWindow.remove(shard.getKey());
                                }
                                floor.add(record);
                                delivered++;
                            }
                        }
                    }
                    for (String shard : List.copyOf(handovers.keySet())) {
                        releases += endWindow(engine, shard, handovers) ? 1 : 0;
                        shardsClosed++;
                    }
                    clock.advance(GENERATION);
                    stream.closeGeneration(generation, clock.instant());
                    WatermarkPruner.Report pruned = new WatermarkPruner(counted, stream.listing(clock.instant()),
                            table, 4, clock).prune();
                    assertThat(pruned.itemsFailed()).as("items the pruner could not change").isZero();
                    folded += pruned.partialsFolded();
                }
            }

            Measures measures = Measures.of(plain, table);
            ScaleRuns.Exactness checked = ScaleRuns.Exactness.of(plain, table, derivations);
            RepairReport repaired = new Rebuilder(plain, null, table, derivations, 2).repair(count -> { });
            boolean exact = checked.exact() && repaired.written() == 0;
            double floorPerRecord = floor.units() / delivered;
            Map<String, Double> byKind = units.byKind();
            SteadyState steady = new SteadyState(delivered, byKind, releases, stream.shardsUsed());
            double wuPerRecord = steady.perRecord();
            System.out.printf("SCALE partitions=%d generations=%d max-item-bytes=%d wu-per-record=%.3f exact=%s%n",
                    PARTITIONS, GENERATIONS, measures.maxItemBytes(), wuPerRecord, exact);
            System.out.printf("scale details: %d records delivered through %d synthetic shards; floor %.3f write units"
                            + " a record (%.2fx); as measured here, with every shard's life compressed to %.1f records,"
                            + " %.3f a record; largest item %s; most watermarks on an item %d (%s); %d partials,"
                            + " most partials of one item %d; %d partials folded by the pruner%n",
                    delivered, stream.shardsUsed(), floorPerRecord, wuPerRecord / floorPerRecord,
                    (double) delivered / shardsClosed, units.total() / delivered, measures.largestItem(),
                    measures.mostWatermarks(), measures.mostWatermarksItem(), measures.partials(),
                    measures.mostPartials(), folded);
            for (Map.Entry<String, Double> kind : byKind.entrySet()) {
                System.out.printf("scale write units %s: %.3f a record as measured%n", kind.getKey(),
                        kind.getValue() / delivered);
            }
            System.out.println("scale steady state: " + steady);

            assertThat(checked.modelDifferences()).as("figures that differ from the read-side model").isEmpty();
            assertThat(checked.verified().differences()).as("drift against the recomputation").isEmpty();
            assertThat(repaired.written()).as("items a repair had to write").isZero();
            assertThat(exact).isTrue();
            // A partial is written by the shards of one lineage, one at a time: those within the retention, and two gone.
            assertThat(measures.mostWatermarksOnAPartial()).as("watermarks on one partial").isLessThanOrEqualTo(
                    stream.generationsListed() + 2);
            // An item keeps up to two watermarks of gone shards (never read again; removed all at once past two).
            assertThat(measures.mostWatermarks()).as("watermarks on one item: its partitions' shards within the"
                    + " retention, and two of gone shards").isLessThanOrEqualTo(
                    MOST_PARTITIONS_OF_AN_ITEM * stream.generationsListed() + 2);
            assertThat(folded).as("partials whose shards are all gone folded").isPositive();
            assertThat(measures.maxItemBytes()).isLessThanOrEqualTo(MAX_ITEM_BYTES);
            // Every write a record costs at one-record batches (derived writes, the cursor's claim, its releases and
            // the pruner's work at the rates of 1,000 writes a second over 1,000 partitions), within twice the floor.
            assertThat(wuPerRecord).as("write units a record at steady state, against the floor of %.3f",
                    floorPerRecord).isLessThanOrEqualTo(2 * floorPerRecord);
            // What every batch pays whatever the rates: its derived writes and its one cursor write.
            assertThat(steady.perBatch()).as("derived and cursor write units a batch").isLessThanOrEqualTo(
                    2 * floorPerRecord);
            assertThat(byKind.get("cursor claim") / delivered).as("cursor claims a batch of one record")
                    .isLessThanOrEqualTo(1.0);
        }
    }
}
