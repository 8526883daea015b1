package io.tally.bench;

import java.util.List;

/** The BENCHMARKS.md section on where the write units go (per item type and per table or index). */
final class WriteUnitReport {
    private WriteUnitReport() {
    }

    /**
     * Where the write units go: per workload, per item type written and per destination (the table, or an index),
     * write units per replayed record of each processor. Empty when the run has no breakdown (an older JSON).
     */
    static String writeUnitSection(Results results) {
        StringBuilder md = new StringBuilder();
        for (Results.WorkloadResult w : results.workloads()) {
            if (w.tally().writeUnitBreakdown() == null || w.naive().writeUnitBreakdown() == null) {
                continue;
            }
            if (md.length() == 0) {
                md.append("## Where the write units go\n\n");
                md.append("Per item type written (its `entityType`; the shard cursors by key) and per destination: "
                        + "the table itself or an index, as DynamoDB Local reports them with "
                        + "`ReturnConsumedCapacity=INDEXES`. Figures are per replayed record; *writes* counts the "
                        + "successful single-item writes of the type.\n\n");
            }
            md.append("**").append(w.name()).append("** (").append(w.records()).append(" records)\n\n");
            MarkdownTable table = new MarkdownTable().left("Item type", "Written to")
                    .right("Tally writes/record", "Tally write units/record", "Naive writes/record",
                            "Naive write units/record");
            java.util.Map<String, Results.WriteUnitShare> tally = byType(w.tally().writeUnitBreakdown());
            java.util.Map<String, Results.WriteUnitShare> naive = byType(w.naive().writeUnitBreakdown());
            java.util.Set<String> types = new java.util.TreeSet<>(tally.keySet());
            types.addAll(naive.keySet());
            double tallyRecords = w.tally().records();
            double naiveRecords = w.naive().records();
            for (String type : types) {
                Results.WriteUnitShare t = tally.get(type);
                Results.WriteUnitShare n = naive.get(type);
                java.util.Set<String> destinations = new java.util.TreeSet<>((a, b) ->
                        a.equals(b) ? 0 : a.equals(RequestCounter.TABLE) ? -1 : b.equals(RequestCounter.TABLE) ? 1
                                : a.compareTo(b));
                if (t != null) {
                    destinations.addAll(t.byDestination().keySet());
                }
                if (n != null) {
                    destinations.addAll(n.byDestination().keySet());
                }
                table.row(type, "all", t == null ? "0" : Report.fmt(t.writes() / tallyRecords, 3),
                        t == null ? "0" : Report.fmt(t.units() / tallyRecords, 3),
                        n == null ? "0" : Report.fmt(n.writes() / naiveRecords, 3),
                        n == null ? "0" : Report.fmt(n.units() / naiveRecords, 3));
                if (destinations.size() > 1) {
                    for (String destination : destinations) {
                        double tu = t == null ? 0 : t.byDestination().getOrDefault(destination, 0.0);
                        double nu = n == null ? 0 : n.byDestination().getOrDefault(destination, 0.0);
                        table.row("", destination, "", Report.fmt(tu / tallyRecords, 3), "",
                                Report.fmt(nu / naiveRecords, 3));
                    }
                }
            }
            table.row("**all**", "", Report.fmt(writes(w.tally()) / tallyRecords, 3),
                    Report.fmt(w.tally().writeUnitsPerRecord(), 3), Report.fmt(writes(w.naive()) / naiveRecords, 3),
                    Report.fmt(w.naive().writeUnitsPerRecord(), 3));
            md.append(table.render()).append('\n');
        }
        return md.toString();
    }

    private static java.util.Map<String, Results.WriteUnitShare> byType(List<Results.WriteUnitShare> shares) {
        java.util.Map<String, Results.WriteUnitShare> byType = new java.util.TreeMap<>();
        shares.forEach(share -> byType.put(share.itemType(), share));
        return byType;
    }

    private static double writes(Results.ProcessorResult processor) {
        return processor.writeUnitBreakdown().stream().mapToDouble(Results.WriteUnitShare::writes).sum();
    }
}
