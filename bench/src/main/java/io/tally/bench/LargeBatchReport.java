package io.tally.bench;

import io.tally.local.stream.EsmSettings;

/**
 * The section "Larger batches: fewer write units, later reads": Tally's replay of each workload again, in batches of
 * the largest size the event source mapping takes, and the freshness run again with the settings that make AWS form
 * such batches. Tally coalesces within a batch, so larger batches cost fewer write units; but the event source mapping
 * hands the function more than one read of the shard (a page of up to 1,000 records) only when it has a batching
 * window, of at least a second. The deployment keeps the window at 0 for freshness; this section measures what the
 * other choice would buy and cost, side by side in the same run.
 */
final class LargeBatchReport {
    /** The event source mapping's largest {@code BatchSize} for DynamoDB Streams. */
    static final int BATCH_SIZE = 10_000;
    /** The smallest batching window AWS takes, the one that lets a batch gather more than one read. */
    static final int WINDOW_SECONDS = 1;
    static final String PROCESSOR = "tally-large-batches";
    /** The deployment's settings with the large batch and its window. */
    static final EsmSettings SETTINGS = EsmSettings.defaults().withBatchSize(BATCH_SIZE)
            .withMaximumBatchingWindowInSeconds(WINDOW_SECONDS);

    private LargeBatchReport() {
    }

    static String section(Results results) {
        boolean any = results.workloads().stream().anyMatch(w -> w.tallyLargeBatch() != null);
        if (!any && results.largeBatchFreshness() == null) {
            return "";
        }
        long deployedWindow = results.freshness() != null ? results.freshness().batchingWindowSeconds()
                : EsmSettings.defaults().maximumBatchingWindow().toSeconds();
        StringBuilder md = new StringBuilder("## Larger batches: fewer write units, later reads\n\n");
        md.append("Tally writes a derived item at most once per batch, so the larger the batch, the fewer write units "
                + "per record. The event source mapping reads a shard a page at a time (up to 1,000 records) and, "
                + "without a batching window, invokes the function with each page as soon as it has read it: a batch "
                + "is never larger than one page, whatever `BatchSize` says, and below a page per read it is what one "
                + "read found. It gathers several reads into one batch only with `MaximumBatchingWindowInSeconds` of 1 "
                + "or more, and then every batch that is not full waits for the window. The deployment's choice is "
                + "`BatchSize` ").append(results.environment().batchSize()).append(" with ")
                .append(deployedWindow == 0 ? "no window" : "a window of " + deployedWindow + " s").append(".");
        if (any) {
            md.append(" In the first table each workload's first row is the replay above (full batches of ")
                    .append(results.environment().batchSize()).append(", as under a backlog), its second row the "
                    + "same records replayed by Tally again in batches of ").append(BATCH_SIZE)
                    .append(" (the largest `BatchSize`), against the naive processor's figures from above (it takes a "
                    + "record at a time, so the batch size changes nothing of its work). AWS also cuts a batch at 6 MB "
                    + "of event, which the local poller does not: with both images of an item in every record, a batch "
                    + "of ").append(BATCH_SIZE).append(" records can be cut to fewer.");
        }
        if (results.freshness() != null && results.largeBatchFreshness() != null) {
            md.append(" The second table is the freshness run with the deployment's settings and again with "
                    + "`BatchSize` ").append(BATCH_SIZE).append(" and a window of ").append(WINDOW_SECONDS)
                    .append(" s, at the same rate: the lag the window costs, and the write units per write at that "
                    + "rate, where batches are as large as the window gathers, not full.");
        }
        md.append("\n\n");
        if (any) {
            MarkdownTable table = new MarkdownTable().left("Workload")
                    .right("batch", "Tally records/s", "records/s ratio", "target").left("met")
                    .right("Tally write units/record", "write units/record ratio", "target")
                    .left("met", "exact after run and a duplicated batch");
            for (Results.WorkloadResult w : results.workloads()) {
                if (w.tallyLargeBatch() == null) {
                    continue;
                }
                row(table, w, w.tally(), results.environment().batchSize());
                row(table, w, w.tallyLargeBatch(), BATCH_SIZE);
            }
            md.append(table.render()).append('\n');
        }
        Results.Freshness small = results.freshness();
        Results.Freshness large = results.largeBatchFreshness();
        if (small != null && large != null) {
            MarkdownTable table = new MarkdownTable()
                    .right("BatchSize", "batching window (s)", "target rate", "invocations", "retries",
                            "write units per write", "p50 (ms)", "p99 (ms)", "max (ms)")
                    .left("p99 at most " + Report.fmt(Report.MAX_P99_MS, 0) + " ms", "exact after run");
            freshnessRow(table, results.environment().batchSize(), small);
            freshnessRow(table, BATCH_SIZE, large);
            md.append(table.render()).append('\n');
        }
        return md.toString();
    }

    private static void row(MarkdownTable table, Results.WorkloadResult w, Results.ProcessorResult p, int batch) {
        double minRate = w.minThroughputRatio();
        double maxUnits = w.maxWriteUnitRatio();
        double rateRatio = p.recordsPerSec() / w.naive().recordsPerSec();
        double unitRatio = p.writeUnitsPerRecord() / w.naive().writeUnitsPerRecord();
        boolean exact = p.exactAfterRun() && p.differencesAfterDuplicate() == 0;
        table.row(w.name(), batch, Report.fmt(p.recordsPerSec(), 0), Report.fmt(rateRatio, 2) + "x",
                Report.fmt(minRate, 0) + "x", rateRatio >= minRate ? "yes" : "no",
                Report.fmt(p.writeUnitsPerRecord(), 3), Report.fmt(unitRatio, 3) + "x", Report.fmt(maxUnits, 2) + "x",
                unitRatio <= maxUnits ? "yes" : "no", exact ? "yes" : "no");
    }

    private static void freshnessRow(MarkdownTable table, int batch, Results.Freshness f) {
        table.row(batch, f.batchingWindowSeconds(), Report.fmt(f.targetPerSec(), 0), f.invocations(), f.retries(),
                Report.fmt(f.writeUnitsPerWrite(), 3), Report.fmt(f.p50Ms(), 0), Report.fmt(f.p99Ms(), 0),
                Report.fmt(f.maxMs(), 0), f.p99Ms() <= Report.MAX_P99_MS && f.missing() == 0 ? "yes" : "no",
                f.exactAfterRun() ? "yes" : "no");
    }
}
