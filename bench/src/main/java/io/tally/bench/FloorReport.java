package io.tally.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The section "Write units against the floor" and its targets: per workload and item type, Tally's write units against
 * the least any processor must spend on the same batches ({@link WriteUnitFloor}, measured by {@link FloorRun}), and
 * where Tally's units above it went.
 */
final class FloorReport {
    /** Issue 30: Tally's write units per record at most this many times the floor's, at the deployment's batch size. */
    static final double MAX_FLOOR_RATIO = 1.25;
    /** The workloads the target is set for. */
    static final Set<String> TARGET_WORKLOADS = Set.of("uniform", "zipf");

    private FloorReport() {
    }

    /** The floor target of a workload, when it has one and its floor was measured. */
    static List<Report.Target> targets(Results.WorkloadResult workload) {
        Results.Floor floor = workload.floor();
        if (floor == null || !TARGET_WORKLOADS.contains(workload.name())) {
            return List.of();
        }
        double ratio = ratio(floor);
        return List.of(new Report.Target((workload.skew() > 0 ? "Skewed" : "Uniform") + " workload ("
                + workload.name() + "): Tally write units per record at most " + Report.fmt(MAX_FLOOR_RATIO, 2)
                + "x the floor (what any processor must write for the same batches of " + floor.batchSize() + ")",
                Report.fmt(ratio, 3) + "x", ratio <= MAX_FLOOR_RATIO));
    }

    static double tallyUnits(Results.Floor floor) {
        return floor.byType().stream().mapToDouble(Results.FloorShare::tallyUnits).sum();
    }

    static double floorUnits(Results.Floor floor) {
        return floor.byType().stream().mapToDouble(Results.FloorShare::floorUnits).sum();
    }

    static double ratio(Results.Floor floor) {
        return tallyUnits(floor) / floorUnits(floor);
    }

    static String section(List<Results.WorkloadResult> workloads) {
        List<Results.WorkloadResult> measured = workloads.stream().filter(w -> w.floor() != null).toList();
        if (measured.isEmpty()) {
            return "";
        }
        StringBuilder md = new StringBuilder("## Write units against the floor\n\n");
        md.append("The *floor* is what any processor must spend on the same batches, computed from the table's states "
                + "alone, independently of how Tally plans its writes: the stream is replayed to Tally's engine once "
                + "more (untimed, on a table of its own, in the same batches of ")
                .append(measured.get(0).floor().batchSize())
                .append(" records), the table is scanned after every batch, and every item whose content changed "
                + "(every attribute but Tally's bookkeeping: the watermarks `wm_*`, the write version `wv`, the "
                + "document revision `srcRev`) is charged one write at its size without that bookkeeping, by "
                + "DynamoDB's rules: one unit per KB of the larger of its states before and after, rounded up; an "
                + "item created costs its size after, one removed (or left with nothing but its key and bookkeeping) "
                + "its size before. Each index adds what the table's definition implies: one write for an entry put "
                + "or deleted, two when an index key changes, one when only a projected attribute does, at the size "
                + "of the projected entry; nothing for an attribute it does not project. Tally's own bookkeeping, "
                + "the shard cursor's claim and release, costs two writes per batch at the cursor's size. Tally's "
                + "figures are DynamoDB Local's for this replay, each write filed under the type of the item it "
                + "addressed; the measured replay's (same engine, same batches) are beside them.\n\n");

        MarkdownTable summary = new MarkdownTable().left("Workload")
                .right("Records", "Tally write units/record (measured replay)", "Tally write units/record",
                        "floor write units/record", "Tally / floor", "items written unchanged",
                        "second writes of an item in a batch", "first writes above the floor's");
        for (Results.WorkloadResult w : measured) {
            Results.Floor floor = w.floor();
            double records = floor.records();
            double unchanged = floor.byType().stream().mapToDouble(Results.FloorShare::unchangedUnits).sum();
            double repeats = floor.byType().stream().mapToDouble(Results.FloorShare::repeatUnits).sum();
            double size = floor.byType().stream().mapToDouble(Results.FloorShare::sizeUnits).sum();
            summary.row(w.name(), floor.records(),
                    w.tally() == null ? "n/a" : Report.fmt(w.tally().writeUnitsPerRecord(), 3),
                    Report.fmt(tallyUnits(floor) / records, 3),
                    Report.fmt(floorUnits(floor) / records, 3), Report.fmt(ratio(floor), 3) + "x",
                    Report.fmt(unchanged / records, 3), Report.fmt(repeats / records, 3),
                    Report.fmt(size / records, 3));
        }
        md.append(summary.render()).append('\n');
        md.append("The last three columns split Tally's units above the floor (per record): writes of items the "
                + "batch left with the same content (contributions that cancel out, which the engine still writes "
                + "to move the watermark), further writes of an item the batch already wrote (the removal of a "
                + "counter family's counters brought to zero, a write split in runs, a write refused and sent again), and what a first "
                + "write of a changed item cost beyond the floor's write of it (bookkeeping that takes the item over "
                + "a KB boundary; for the cursors, whatever Tally's cursor writes cost beyond two a batch).\n\n");

        for (Results.WorkloadResult w : measured) {
            Results.Floor floor = w.floor();
            double records = floor.records();
            md.append("**").append(w.name()).append("** (").append(floor.records()).append(" records, ")
                    .append(floor.batches()).append(" batches)\n\n");
            MarkdownTable table = new MarkdownTable().left("Item type", "Written to")
                    .right("Tally writes/record", "floor writes/record", "Tally write units/record",
                            "floor write units/record", "Tally / floor");
            for (Results.FloorShare share : floor.byType()) {
                table.row(share.itemType(), "all", Report.fmt(share.tallyWrites() / records, 3),
                        Report.fmt(share.floorWrites() / records, 3), Report.fmt(share.tallyUnits() / records, 3),
                        Report.fmt(share.floorUnits() / records, 3), ratioCell(share.tallyUnits(), share.floorUnits()));
                Set<String> destinations = new TreeSet<>(share.tallyByDestination().keySet());
                destinations.addAll(share.floorByDestination().keySet());
                if (destinations.size() > 1) {
                    for (String destination : destinations) {
                        double tally = value(share.tallyByDestination(), destination);
                        double least = value(share.floorByDestination(), destination);
                        table.row("", destination, "", "", Report.fmt(tally / records, 3),
                                Report.fmt(least / records, 3), ratioCell(tally, least));
                    }
                }
            }
            long tallyWrites = floor.byType().stream().mapToLong(Results.FloorShare::tallyWrites).sum();
            long floorWrites = floor.byType().stream().mapToLong(Results.FloorShare::floorWrites).sum();
            table.row("**all**", "", Report.fmt(tallyWrites / records, 3), Report.fmt(floorWrites / records, 3),
                    Report.fmt(tallyUnits(floor) / records, 3), Report.fmt(floorUnits(floor) / records, 3),
                    "**" + ratioCell(tallyUnits(floor), floorUnits(floor)) + "**");
            md.append(table.render()).append('\n');
        }
        return md.toString();
    }

    private static double value(Map<String, Double> units, String destination) {
        Double value = units.get(destination);
        return value == null ? 0 : value;
    }

    private static String ratioCell(double tally, double floor) {
        if (floor <= 0) {
            return tally <= 0 ? "" : "n/a";
        }
        return Report.fmt(tally / floor, 2) + "x";
    }

    /** Every workload's floor ratio, for a log line. */
    static List<String> summaries(List<Results.WorkloadResult> workloads) {
        List<String> lines = new ArrayList<>();
        for (Results.WorkloadResult w : workloads) {
            if (w.floor() != null) {
                lines.add(w.name() + ": Tally " + Report.fmt(tallyUnits(w.floor()) / w.floor().records(), 3)
                        + " write units/record, the floor " + Report.fmt(floorUnits(w.floor()) / w.floor().records(), 3)
                        + ", " + Report.fmt(ratio(w.floor()), 3) + "x");
            }
        }
        return lines;
    }
}
