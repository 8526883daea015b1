package io.tally.stream.scale;

import java.util.Map;

/**
 * Write units a record at steady state under issue 38's workload (1,000 writes a second spread over 1,000 partitions:
 * a one-record batch a second per shard), from what the simulation measured. The simulation compresses a shard's
 * life (4 hours, 14,400 batches at that rate) to a record or two, so the costs that come once a window or once a
 * shard's life are measured per occurrence and spread at the workload's rates; the rest is taken per record as
 * measured:
 * <ul>
 *   <li>per batch: the derived writes and the cursor's one claim (which also stores the progress handed over);</li>
 *   <li>per window ({@value ScaleSimulationIT#WINDOW_BATCHES} batches) and per shard's life ({@value #SHARD_LIFE}
 *       batches): a cursor release, the last invocation's, at the units a release measured here;</li>
 *   <li>per shard's life: its cursor's entry in the cursor registry (written, marked, deleted by the pruner) and its
 *       lineage settled in the cursor, at the units measured here per shard;</li>
 *   <li>the pruner's folds and removals, per record as measured: a bound, since a shard's records here touch almost
 *       only items no other record of the shard touches, so nearly every one leaves a watermark or partial of its
 *       own to remove or fold, where a longer-lived shard's records share them.</li>
 * </ul>
 */
record SteadyState(int records, Map<String, Double> byKind, int releases, int shards) {
    /** One-record batches in a shard's life: 4 hours at a batch a second. */
    static final int SHARD_LIFE = 4 * 3600;

    private double units(String kind) {
        return byKind.getOrDefault(kind, 0.0);
    }

    /** What every batch writes, whatever the rates: derived writes and the cursor's claim, a record each here. */
    double perBatch() {
        return (units("derived") + units("cursor claim")) / records;
    }

    double unitsPerRelease() {
        return releases == 0 ? 0 : units("cursor release") / releases;
    }

    double registryPerShard() {
        return units("cursor registry") / shards;
    }

    double perRecord() {
        return perBatch() + unitsPerRelease() * (1.0 / ScaleSimulationIT.WINDOW_BATCHES + 1.0 / SHARD_LIFE)
                + registryPerShard() / SHARD_LIFE + (units("fold") + units("pruner")) / records;
    }

    @Override
    public String toString() {
        return String.format("%.3f write units a record: %.3f derived, %.3f cursor claim, %.3f cursor release (%.2f a"
                        + " release, one a window of %d batches and one a shard's life of %d), %.5f cursor registry"
                        + " (%.2f a shard), %.3f fold, %.3f pruner",
                perRecord(), units("derived") / records, units("cursor claim") / records,
                unitsPerRelease() * (1.0 / ScaleSimulationIT.WINDOW_BATCHES + 1.0 / SHARD_LIFE), unitsPerRelease(),
                ScaleSimulationIT.WINDOW_BATCHES, SHARD_LIFE, registryPerShard() / SHARD_LIFE, registryPerShard(),
                units("fold") / records, units("pruner") / records);
    }
}
