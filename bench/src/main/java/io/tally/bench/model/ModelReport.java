package io.tally.bench.model;

import io.tally.bench.aws.LatencyModel;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * The page section of the CPU-confined model ({@link ModelResults}): the assumptions with their sources, the rates
 * (median of the repeats and their spread), the cost frontier, the tuning runs and the targets.
 */
public final class ModelReport {
    /** Target: a backlog's records a second per shard, at the default memory (1,000 a second with 1.5x headroom). */
    static final double TARGET_RECORDS_PER_SEC = 1_500;
    /** Target: freshness p99 at 80% of a partition, stream delay included. */
    static final double TARGET_P99_MILLIS = 1_000;
    /** Target: write units a record at 50% of a partition, against the floor. */
    static final double TARGET_FLOOR_RATIO = 1.3;

    private ModelReport() {
    }

    /** The section alone ({@code aws-model.md}), its targets with it. */
    public static String section(ModelResults results) {
        return section(results, true);
    }

    /**
     * The section for the page: its targets are on the page's Targets table, so here without them when
     * {@code withTargets} is false.
     */
    public static String section(ModelResults results, boolean withTargets) {
        StringBuilder md = new StringBuilder();
        md.append("## On AWS, modelled: the deployed function under its CPU\n\n");
        md.append("Run ").append(results.date()).append(" with `--aws-model` (command in the README). The stream"
                + " processor function runs as in Lambda, in a process of its own: the deployed handler"
                + " (`WindowedStreamHandler`) built from its environment, each batch's JSON read by the Lambda"
                + " runtime's own serialization, the `JAVA_TOOL_OPTIONS` the template gives it (`")
                .append(results.javaToolOptions()).append("`), under the share of one core its memory buys. Every"
                + " figure is in the model's time (time ran ").append(fmt(results.timeScale(), 0))
                .append(" times slower; DynamoDB Local and a local event bus did the work).\n\n");
        assumptions(md, results);
        rates(md, results);
        frontier(md, results);
        tuning(md, results);
        if (withTargets) {
            targets(md, results);
        } else {
            md.append("Its targets are on the Targets table at the top of this page.\n\n");
        }
        return md.toString();
    }

    private static void assumptions(StringBuilder md, ModelResults results) {
        md.append("### Assumptions and their sources\n\n| What | The model | Source |\n|---|---|---|\n");
        md.append("| CPU | memory / 1,769 MB of a core (")
                .append(fmt(results.defaultMemory() / ModelRun.MEGABYTES_PER_VCPU, 2))
                .append(" at ").append(results.defaultMemory()).append(" MB), as a CFS bandwidth quota on one core"
                        + " of this host (a quota of the share divided by the time scale, a 20 ms period in the"
                        + " model's time); a host core counts as a Lambda vCPU | Lambda Developer Guide, \"Configure"
                        + " Lambda function memory\": 1,769 MB has the equivalent of one vCPU; the host core's speed"
                        + " against Lambda's is not known (an assumption) |\n");
        md.append("| Heap | 85% of the memory setting | an assumption |\n");
        md.append("| JIT warm-up | one function process per memory setting, JIT setting and repeat; it first processes ")
                .append(fmt(results.warmUpRecords(), 0))
                .append(" records without its quota, unreported (the first ").append(fmt(ModelRun.WARM_UP, 0))
                .append(" in batches of 5, so that the code every invocation runs once is compiled too, the rest in"
                        + " full batches; unthrottled, its modelled waits gone), then waits until its JIT has compiled"
                        + " what it queued; each of its runs starts from a copy of the table those records left. In the"
                        + " measured runs the JIT's compiler threads run beside the quota, on the host's other core, and"
                        + " their CPU is not a record's: what the JIT still compiles then would, in a function that has"
                        + " run a while, long have been compiled (measured: a run right after the warm-up compiled for"
                        + " about as much CPU as the function used, under the quota it slowed runs for minutes) | an"
                        + " assumption: a function that has run a while, or was primed before its SnapStart snapshot; the"
                        + " snapshot's restore and a young function's compilations are not modelled (the cold-start"
                        + " table has the first invocation's) |\n");
        md.append("| Stream delay | log-normal, p50 ").append(fmt(results.streamDelay()[0], 0)).append(" ms, p99 ")
                .append(fmt(results.streamDelay()[1], 0)).append(" ms, from the write to the record being readable,"
                        + " calibrated so that on an idle shard it, the wait for the next of four polls a second and"
                        + " one GetRecords call give the published p50 and p99 (published p10/p50/p90/p99: ")
                .append(joined(results.streamDelayFit()[0])).append(" ms; the model's: ")
                .append(joined(results.streamDelayFit()[1])).append(" ms) | ").append(StreamDelay.SOURCE)
                .append(" |\n");
        md.append("| Partition throttling | 1,000 write units a second per partition key value, a second's worth"
                + " saved up; a refused write fails with `ProvisionedThroughputExceededException` before it reaches"
                + " the table and the SDK retries it (its back-off stretched by the time scale); one unit per item"
                + " write, two per transactional item | DynamoDB Developer Guide, \"Partitions and data"
                + " distribution\" (1,000 WCU a second per partition); the bucket's size is an assumption |\n");
        md.append("| PutEvents quota | ").append(fmt(results.putEventsPerSecond(), 0)).append(" calls a second for"
                + " the shard's function (a refused call fails with `ThrottlingException`) | Amazon EventBridge"
                + " quotas: PutEvents 2,400 requests a second in us-east-2 (10,000 in us-east-1), per account and"
                + " Region; the share of 10 shards is an assumption |\n");
        md.append("| Echo | every item the function writes comes back as a stream record a stream delay later; the"
                + " mapping reads it (a place in a GetRecords page of at most 1,000) and its filter drops it; as many"
                + " echoes reach the shard as its function writes | the template's `FilterCriteria`; the even spread"
                + " over partitions is an assumption |\n");
        md.append("| Mapping | `BatchSize` ").append(results.batchSize()).append(", one invocation at a time, four"
                + " polls a second of an idle shard, the batching window as each run says, a tumbling window of 60 s |"
                + " Lambda Developer Guide, \"Using AWS Lambda with Amazon DynamoDB\"; the template |\n");
        md.append("| Workload | every seed domain's writes (the parts only asked for too), Zipf-skewed, recorded in"
                + " DynamoDB Local and replayed as one shard | `Workload.writesOfEveryDomain` |\n\n");
        md.append("Call latencies (each drawn afresh per attempt; beyond the p99 a Pareto tail through the"
                + " p99.9):\n\n");
        md.append("| Service | Operation | p50 ms | p99 ms | p99.9 ms | Source |\n|---|---|---:|---:|---:|---|\n");
        for (LatencyModel.Operation operation : results.model()) {
            md.append("| ").append(operation.service()).append(" | ").append(operation.operation()).append(" | ")
                    .append(fmt(operation.p50Millis(), 0)).append(" | ").append(fmt(operation.p99Millis(), 0))
                    .append(" | ").append(fmt(operation.p999Millis(), 0)).append(" | ").append(operation.source())
                    .append(" |\n");
        }
        md.append('\n');
    }

    private static void rates(StringBuilder md, ModelResults results) {
        List<ModelResults.Point> rates = group(results, "rates");
        if (rates.isEmpty()) {
            return;
        }
        md.append("### Rates at the template's memory and window\n\nMedian of the repeats, [lowest, highest] beside"
                + " it. Freshness runs from the write to the return of the invocation that applied it. \"Calls"
                + " late\": the share of the function's calls whose answer took longer than the latency the model"
                + " drew for them (DynamoDB Local's own time, or the function waiting for its quota mid-call); those"
                + " calls took their real time, so where it is high the figures are slower than the model alone"
                + " would make them.\n\n");
        md.append("| Arriving | Repeats | Kept up | Records/s | p50 ms | p99 ms | p99.9 ms | Write units/record |"
                + " CPU ms/record | Echo/record | Throttled writes | Throttled PutEvents | Calls late | Exact |\n"
                + "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (double share : shares(rates)) {
            List<ModelResults.Point> runs = rates.stream().filter(p -> p.share() == share).toList();
            md.append("| ").append(share == 0 ? "backlog" : fmt(share * 100, 0) + "% (" + fmt(share
                            * ModelRun.PARTITION_WRITES_PER_SEC, 0) + "/s)").append(" | ").append(runs.size())
                    .append(" | ").append(runs.stream().filter(ModelResults.Point::keptUp).count()).append(" of ")
                    .append(runs.size()).append(" | ").append(spread(runs, ModelResults.Point::recordsPerSec, 0))
                    .append(" | ").append(spread(runs, p -> p.freshness()[0], 0)).append(" | ")
                    .append(spread(runs, p -> p.freshness()[1], 0)).append(" | ")
                    .append(spread(runs, p -> p.freshness()[2], 0)).append(" | ")
                    .append(spread(runs, ModelResults.Point::writeUnitsPerRecord, 2)).append(" | ")
                    .append(spread(runs, ModelResults.Point::cpuMillisPerRecord, 3)).append(" | ")
                    .append(spread(runs, ModelResults.Point::echoPerRecord, 2)).append(" | ")
                    .append(runs.stream().mapToLong(ModelResults.Point::throttledWrites).sum()).append(" | ")
                    .append(runs.stream().mapToLong(ModelResults.Point::throttledPutEvents).sum()).append(" | ")
                    .append(spread(runs, p -> 100.0 * p.lateCalls() / Math.max(1, p.calls()), 0)).append("% | ")
                    .append(runs.stream().allMatch(ModelResults.Point::exact) ? "yes" : "**no**").append(" |\n");
        }
        md.append('\n');
    }

    private static void frontier(StringBuilder md, ModelResults results) {
        List<ModelResults.Point> frontier = group(results, "frontier");
        if (frontier.isEmpty()) {
            return;
        }
        md.append("### The cost frontier: write units against freshness, by batching window\n\n"
                + "Every window side by side in one function process. Lambda takes a stream's window in whole seconds"
                + " (0 to 300): a window under a second shows the curve's shape, and cannot be deployed.\n\n"
                + "![Write units per record against freshness p99](bench/results/aws-frontier.png)\n\n"
                + "| Window s | Arriving | Runs | Write units/record | p50 ms | p99 ms | Records/invocation |\n"
                + "|---:|---|---:|---:|---:|---:|---:|\n");
        Set<Double> windows = new LinkedHashSet<>();
        frontier.stream().map(ModelResults.Point::window).sorted().forEach(windows::add);
        for (double window : windows) {
            for (double share : ModelPlans.FRONTIER_SHARES) {
                List<ModelResults.Point> runs = frontier.stream().filter(p -> p.window() == window
                        && p.share() == share).toList();
                if (runs.isEmpty()) {
                    continue;
                }
                md.append("| ").append(fmt(window, 1)).append(" | ").append(fmt(share * 100, 0)).append("% | ")
                        .append(runs.size()).append(" | ")
                        .append(spread(runs, ModelResults.Point::writeUnitsPerRecord, 2)).append(" | ")
                        .append(spread(runs, p -> p.freshness()[0], 0)).append(" | ")
                        .append(spread(runs, p -> p.freshness()[1], 0)).append(" | ")
                        .append(spread(runs, p -> (double) p.processed() / Math.max(1, p.invocations()), 0))
                        .append(" |\n");
            }
        }
        md.append('\n');
    }

    private static void tuning(StringBuilder md, ModelResults results) {
        List<ModelResults.Point> tuning = group(results, "tuning");
        if (tuning.isEmpty()) {
            return;
        }
        md.append("### Memory and JIT flags, side by side (a backlog each)\n\n"
                + "| Memory MB | vCPU | JIT | Runs | Records/s | CPU ms/record | Write units/record | Exact |\n"
                + "|---:|---:|---|---:|---:|---:|---:|---|\n");
        Set<Integer> memories = new LinkedHashSet<>();
        tuning.stream().map(ModelResults.Point::memory).sorted().forEach(memories::add);
        for (int memory : memories) {
            for (String jit : List.of(ModelPlans.C1, ModelPlans.TIERED)) {
                List<ModelResults.Point> runs = tuning.stream().filter(p -> p.memory() == memory
                        && p.jit().equals(jit)).toList();
                if (runs.isEmpty()) {
                    continue;
                }
                md.append("| ").append(memory).append(" | ").append(fmt(runs.get(0).cores(), 2)).append(" | ")
                        .append(jit.equals(ModelPlans.C1) ? "C1 only" : "full tiering")
                        .append(jit.equals(ModelPlans.jit(results.javaToolOptions())) ? " (the template's)" : "")
                        .append(" | ")
                        .append(runs.size()).append(" | ").append(spread(runs, ModelResults.Point::recordsPerSec, 0))
                        .append(" | ").append(spread(runs, ModelResults.Point::cpuMillisPerRecord, 3)).append(" | ")
                        .append(spread(runs, ModelResults.Point::writeUnitsPerRecord, 2)).append(" | ")
                        .append(runs.stream().allMatch(ModelResults.Point::exact) ? "yes" : "**no**").append(" |\n");
            }
        }
        md.append('\n');
    }

    /** A target of the model: what it asks, what the model measured, and whether that meets it. */
    public record TargetRow(String description, String measured, boolean met) {
    }

    /** The targets this mode measures, at the template's memory and window, with the median of the repeats. */
    private static void targets(StringBuilder md, ModelResults results) {
        List<TargetRow> rows = targetRows(results);
        if (rows.isEmpty()) {
            return;
        }
        md.append("### Targets in the model\n\n| Target | Measured | Met |\n|---|---|---|\n");
        for (TargetRow row : rows) {
            md.append("| ").append(row.description()).append(" | ").append(row.measured()).append(" | ")
                    .append(row.met() ? "yes" : "**no**").append(" |\n");
        }
        md.append('\n');
    }

    /**
     * The targets the model measures (none without runs at the template's memory and window): a backlog's records a
     * second, the p99 at 80%, write units at 50% against the floor, and every run exact.
     */
    public static List<TargetRow> targetRows(ModelResults results) {
        List<ModelResults.Point> rates = group(results, "rates");
        if (rates.isEmpty()) {
            return List.of();
        }
        List<TargetRow> rows = new ArrayList<>();
        List<ModelResults.Point> backlog = rates.stream().filter(p -> p.share() == 0).toList();
        if (!backlog.isEmpty()) {
            double median = median(backlog, ModelResults.Point::recordsPerSec);
            rows.add(new TargetRow("A shard keeps up with a saturated partition (1,000 records/s) with"
                    + " events, 1.5x headroom: a backlog at " + fmt(TARGET_RECORDS_PER_SEC, 0) + " records/s or more, "
                    + results.defaultMemory() + " MB",
                    spread(backlog, ModelResults.Point::recordsPerSec, 0) + " records/s ("
                            + fmt(median / ModelRun.PARTITION_WRITES_PER_SEC, 2) + "x a partition)"
                            + (median >= TARGET_RECORDS_PER_SEC ? "" : "; what bounds it, the profile and the design"
                            + " that would pass it: [docs/shard-throughput.md](docs/shard-throughput.md)"),
                    median >= TARGET_RECORDS_PER_SEC));
        }
        List<ModelResults.Point> eighty = rates.stream().filter(p -> p.share() == 0.8).toList();
        if (!eighty.isEmpty()) {
            rows.add(new TargetRow("Freshness p99 at most 1 s at 80% of a partition, stream delay"
                    + " included", spread(eighty, ModelResults.Point::p99, 0) + " ms",
                    median(eighty, ModelResults.Point::p99) <= TARGET_P99_MILLIS));
        }
        List<ModelResults.Point> half = rates.stream().filter(p -> p.share() == ModelRun.FLOOR_SHARE).toList();
        if (!half.isEmpty() && results.floor() != null) {
            double floor = results.floor().unitsPerRecord();
            double units = median(half, ModelResults.Point::writeUnitsPerRecord);
            rows.add(new TargetRow("With the default batching window, write units per record at most "
                    + fmt(TARGET_FLOOR_RATIO, 1) + "x the floor at 50% of a partition (the floor: " + fmt(floor, 2)
                    + " a record, the same records in full batches of " + fmt(results.floor().batchSize(), 0) + ")",
                    spread(half, ModelResults.Point::writeUnitsPerRecord, 2) + " (" + fmt(units / floor, 2) + "x"
                            + keptUp(half) + ")",
                    units <= TARGET_FLOOR_RATIO * floor));
        }
        long exact = results.points().stream().filter(ModelResults.Point::exact).count();
        rows.add(new TargetRow("Every run exact", exact + " of " + results.points().size(),
                exact == results.points().size()));
        return rows;
    }

    /**
     * Said of runs some of which fell behind: their batches were a backlog's, full whatever the window, so their write
     * units say little about the window's.
     */
    private static String keptUp(List<ModelResults.Point> runs) {
        long kept = runs.stream().filter(ModelResults.Point::keptUp).count();
        return kept == runs.size() ? "" : "; kept up in " + kept + " of " + runs.size() + " runs, the others read full"
                + " batches as a backlog does";
    }

    private static double median(List<ModelResults.Point> runs, ToDoubleFunction<ModelResults.Point> figure) {
        return ModelResults.medianAndSpread(runs.stream().map(p -> figure.applyAsDouble(p)).toList())[0];
    }

    private static List<ModelResults.Point> group(ModelResults results, String group) {
        return results.points().stream().filter(p -> p.group().equals(group)).toList();
    }

    private static List<Double> shares(List<ModelResults.Point> points) {
        Set<Double> shares = new LinkedHashSet<>();
        points.stream().map(ModelResults.Point::share).sorted().forEach(shares::add);
        return List.copyOf(shares);
    }

    /** The median of a figure over runs, with [lowest, highest] when there is more than one run. */
    static String spread(List<ModelResults.Point> runs, ToDoubleFunction<ModelResults.Point> figure, int decimals) {
        double[] m = ModelResults.medianAndSpread(runs.stream().map(p -> figure.applyAsDouble(p)).toList());
        return runs.size() == 1 ? fmt(m[0], decimals)
                : fmt(m[0], decimals) + " [" + fmt(m[1], decimals) + ", " + fmt(m[2], decimals) + "]";
    }

    private static String joined(double[] values) {
        List<String> parts = new ArrayList<>();
        for (double value : values) {
            parts.add(fmt(value, 0));
        }
        return String.join(", ", parts);
    }

    static String fmt(double value, int decimals) {
        return String.format(Locale.ROOT, "%,." + decimals + "f", value);
    }
}
