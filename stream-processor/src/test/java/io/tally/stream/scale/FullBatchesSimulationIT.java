package io.tally.stream.scale;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.core.ShardSettings;
import io.tally.core.ShardToken;
import io.tally.core.TableDefinition;
import io.tally.core.domain.Derivations;
import io.tally.core.domain.DomainRegistry;
import io.tally.stream.engine.BatchResult;
import io.tally.stream.engine.Engine;
import io.tally.stream.engine.ShardCursors;
import io.tally.stream.engine.SourceRecord;
import io.tally.stream.rebuild.WatermarkPruner;
import io.tally.testkit.LocalDynamoDbServer;
import io.tally.testkit.MutableClock;
import io.tally.testkit.Workload;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Issue 38's figures at full batches (1,000 records): a few hot partitions (a partition's shard takes a full batch when
 * its records come faster than the mapping's batching window empties it), each shard living through about 2,000
 * records, several shard generations with the pruner between them, and then every generation gone (the clock moved
 * past the stream's retention): the pruner folds every partial and removes every watermark and cursor the shards left,
 * so its whole cost is in the figure, once per shard as in production. The floor is what a processor without
 * bookkeeping writes for the same batches: each item a batch changes, once ({@link ScaleFloor#addBatch}).
 *
 * <p>Two figures of the whole cost. <b>Steady state</b> ({@code steady-wu-per-record}): what every batch pays, plus
 * the pruner's passes during the run (their folds and removals) spread over the records of the generations those
 * passes found gone. A generation lasts {@link #GENERATION} here, more than half the stream's retention, so each pass
 * finds gone the one generation that went since the pass before, as the hourly pass of a deployment finds the shards
 * that went in the hour: each base item's partials are folded a generation at a time, never several generations in
 * one transaction. <b>With the last pass</b> ({@code wu-per-record}): every record, and every pass including the last,
 * which folds the generations still listed at the end together (two generations a base item's transaction: cheaper a
 * partial than a deployment pays, so the steady state is the figure to judge by).
 *
 * <p>Asserted: what every batch pays (its derived writes and its one cursor write) within 1.25 times the floor, and the
 * figures exact. Printed, not asserted: the totals with folding and pruning, which are paid once per shard and grow
 * with the items a shard touches, not with its batches (docs/exactly-once.md, "Write units at full batches"). Prints
 * one line {@code SCALE-FULL-BATCHES ...}. Tagged {@code scale}: the fault profile runs it (.ci/run).
 */
@Tag("scale")
class FullBatchesSimulationIT {
    /** Partitions ({@code -Dtally.scale.partitions}, default 2): fewer make each shard's life longer. */
    static final int PARTITIONS = Integer.getInteger("tally.scale.partitions", 2);
    /**
     * Shard generations ({@code -Dtally.scale.generations}, default 5): the passes after the third, fourth and fifth
     * find the first three gone (the steady state's figure), the last pass the other two; an item written by three
     * generations holds three watermarks of gone shards, one more than an item keeps, so the pruner's removals are in
     * the figure.
     */
    static final int GENERATIONS = Integer.getInteger("tally.scale.generations", 5);
    /**
     * How long a shard generation lasts on the simulated clock: more than half the retention of 24 hours, so that a
     * generation is gone (closed 24 hours ago) by the pass two generations later and each pass finds one generation
     * gone. A deployment's shards live about 4 hours and its pruner passes hourly, finding gone the shards that closed
     * 24 to 25 hours before: one generation a pass too.
     */
    static final Duration GENERATION = Duration.ofHours(13);
    /**
     * Workload steps a generation ({@code -Dtally.scale.steps}, default 3,000): about 1.3 records each, so each of two
     * partitions' shards takes a full batch or two.
     */
    static final int STEPS_PER_GENERATION = Integer.getInteger("tally.scale.steps", 3_000);
    static final int BATCH = 1_000;
    static final double BOUND = 1.25;

    @Test
    void hotPartitionsInFullBatches_throughGenerationsAllPruned_exact_batchCostsWithinAQuarterOfTheFloor() {
        try (LocalDynamoDbServer server = LocalDynamoDbServer.start()) {
            WriteUnits units = new WriteUnits();
            DynamoDbClient plain = server.client();
            DynamoDbClient counted = server.client(units);
            String table = "full";
            plain.createTable(TableDefinition.createTableRequest(table));
            MutableClock clock = new MutableClock(ScaleSimulationIT.T0);
            Derivations derivations = DomainRegistry.load().derivations(ShardSettings.DEFAULTS);
            SyntheticStream stream = new SyntheticStream(server.streamsClient(), table, PARTITIONS);
            ScaleFloor floor = new ScaleFloor(derivations);
            Workload workload = new Workload(plain, table, 38, 1.1, false).with("orgs", "favourites", "songs");
            int delivered = 0;
            int batches = 0;
            int largest = 0;
            long folded = 0;
            long foldedInRun = 0;
            List<Integer> deliveredBy = new ArrayList<>();
            Map<String, Double> beforeInRun = Map.of();
            Map<String, Double> afterInRun = Map.of();
            int recordsGoneInRun = 0;
            Set<String> lineages;

            try (Engine engine = ScaleRuns.engine(counted, plain, table, derivations, clock,
                    stream::soleParent)) {
                for (int generation = 0; generation < GENERATIONS; generation++) {
                    workload.run(STEPS_PER_GENERATION);
                    int deliveredBefore = delivered;
                    // The claim handed over from batch to batch, released by the shard's last invocation (a window of
                    // a minute holds every batch of a shard's generation here).
                    Map<String, ShardCursors.Handover> handovers = new HashMap<>();
                    for (Map<String, List<SourceRecord>> shards = stream.next(generation); !shards.isEmpty();
                         shards = stream.next(generation)) {
                        for (Map.Entry<String, List<SourceRecord>> shard : shards.entrySet()) {
                            List<SourceRecord> records = shard.getValue();
                            for (int from = 0; from < records.size(); from += BATCH) {
                                List<SourceRecord> batch = records.subList(from, Math.min(records.size(),
                                        from + BATCH));
                                BatchResult result = engine.process(batch, new ShardCursors.Lease(
                                        UUID.randomUUID().toString(), clock.instant().plus(Duration.ofMinutes(1))),
                                        new ShardCursors.Chain(handovers.get(shard.getKey()), true));
                                assertThat(result.failedSequenceNumber()).as("batch of %s", shard.getKey()).isEmpty();
                                handovers.put(shard.getKey(), result.handover().orElse(null));
                                floor.addBatch(batch);
                                delivered += batch.size();
                                largest = Math.max(largest, batch.size());
                                batches++;
                            }
                        }
                    }
                    handovers.forEach((shard, open) -> {
                        if (open != null) {
                            assertThat(engine.releaseHandover(shard, open)).as("release of %s's claim", shard).isTrue();
                        }
                    });
                    deliveredBy.add(delivered - deliveredBefore);
                    clock.advance(GENERATION);
                    stream.closeGeneration(generation, clock.instant());
                    int gone = stream.generationsGone(clock.instant());
                    if (gone > 0 && beforeInRun.isEmpty()) {
                        beforeInRun = units.byKind();
                    }
                    long foldedNow = prune(counted, stream, table, clock);
                    folded += foldedNow;
                    if (gone > 0) {
                        foldedInRun += foldedNow;
                        afterInRun = units.byKind();
                        recordsGoneInRun = deliveredBy.subList(0, gone).stream().mapToInt(Integer::intValue).sum();
                    }
                }
                // Each partition's shards continue one lineage from the first generation on: the partials of every
                // generation are those of the first generation's shards.
                Set<String> firstShards = new HashSet<>();
                for (int partition = 0; partition < PARTITIONS; partition++) {
                    firstShards.add(ShardToken.of(SyntheticStream.shardId(0, partition)));
                }
                lineages = Measures.of(plain, table).partialLineages();
                assertThat(lineages).as("the lineages of the partials before the last pass").isNotEmpty()
                        .isSubsetOf(firstShards);
                // Every generation gone from the stream: the pruner's whole work for them, once.
                clock.advance(SyntheticStream.RETENTION.plus(GENERATION));
                folded += prune(counted, stream, table, clock);
            }

            Measures measures = Measures.of(plain, table);
            ScaleRuns.Exactness checked = ScaleRuns.Exactness.of(plain, table, derivations);
            boolean exact = checked.exact();
            Map<String, Double> byKind = units.byKind();
            double floorPerRecord = floor.units() / delivered;
            double perRecord = units.total() / delivered;
            double perBatch = (byKind.getOrDefault("derived", 0.0) + byKind.getOrDefault("cursor claim", 0.0)
                    + byKind.getOrDefault("cursor release", 0.0)) / delivered;
            double inRunFold = unitsBetween(beforeInRun, afterInRun, "fold");
            double inRunPruner = unitsBetween(beforeInRun, afterInRun, "pruner");
            double steady = recordsGoneInRun == 0 ? Double.NaN
                    : perBatch + (inRunFold + inRunPruner) / recordsGoneInRun;
            System.out.printf("SCALE-FULL-BATCHES partitions=%d generations=%d records=%d batches=%d largest-batch=%d"
                            + " floor=%.3f batch-wu-per-record=%.3f (%.2fx) steady-wu-per-record=%.3f (%.2fx)"
                            + " wu-per-record=%.3f (%.2fx) exact=%s%n",
                    PARTITIONS, GENERATIONS, delivered, batches, largest, floorPerRecord, perBatch,
                    perBatch / floorPerRecord, steady, steady / floorPerRecord, perRecord, perRecord / floorPerRecord,
                    exact);
            System.out.printf("scale full batches steady state: passes during the run folded %d partials at %.2f"
                            + " units each (%.4f a record of the %d records of the generations they found gone),"
                            + " removals and positions %.4f a record%n", foldedInRun,
                    foldedInRun == 0 ? 0 : inRunFold / foldedInRun, inRunFold / recordsGoneInRun, recordsGoneInRun,
                    inRunPruner / recordsGoneInRun);
            for (Map.Entry<String, Double> kind : byKind.entrySet()) {
                System.out.printf("scale full batches write units %s: %.4f a record%n", kind.getKey(),
                        kind.getValue() / delivered);
            }
            System.out.printf("scale full batches: %d partials folded; largest item %d bytes%n", folded,
                    measures.maxItemBytes());

            assertThat(checked.modelDifferences()).as("figures that differ from the read-side model").isEmpty();
            assertThat(checked.verified().differences()).as("drift against the recomputation").isEmpty();
            assertThat(largest).as("the largest batch").isEqualTo(BATCH);
            assertThat(folded).as("partials whose shards are all gone folded").isPositive();
            assertThat(foldedInRun).as("partials folded by the passes during the run").isPositive();
            assertThat(measures.partials()).as("partials left once every shard is gone").isZero();
            // An item keeps up to two watermarks of gone shards: never read again, removed all at once past two.
            assertThat(measures.mostWatermarks()).as("watermarks left on an item once every shard is gone")
                    .isLessThanOrEqualTo(2);
            // What every batch pays: its derived writes (coalesced per item, as the floor's) and its cursor write.
            assertThat(perBatch).as("derived and cursor write units a record in full batches, against the floor of"
                    + " %.3f", floorPerRecord).isLessThanOrEqualTo(BOUND * floorPerRecord);
        }
    }

    private static double unitsBetween(Map<String, Double> before, Map<String, Double> after, String kind) {
        return after.getOrDefault(kind, 0.0) - before.getOrDefault(kind, 0.0);
    }

    /** One pass of the pruner over the listing at the clock's time; it must change every item it meant to. */
    private static long prune(DynamoDbClient counted, SyntheticStream stream, String table, MutableClock clock) {
        WatermarkPruner.Report pruned = new WatermarkPruner(counted, stream.listing(clock.instant()), table, 4, clock)
                .prune();
        assertThat(pruned.itemsFailed()).as("items the pruner could not change").isZero();
        assertThat(pruned.outcome()).isEqualTo(WatermarkPruner.Outcome.COMPLETE);
        return pruned.partialsFolded();
    }
}
