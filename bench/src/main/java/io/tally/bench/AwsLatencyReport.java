package io.tally.bench;

import static io.tally.bench.Report.fmt;

import io.tally.bench.aws.CallTimes;
import io.tally.bench.aws.LatencyModel;
import java.util.ArrayList;
import java.util.List;

/** The AWS-latency section of BENCHMARKS.md and its targets. */
final class AwsLatencyReport {
    /** Records a second one shard must sustain, events on. */
    static final double MIN_RECORDS_PER_SEC = 1_000;
    /** The freshness p99 allowed at {@link #FRESHNESS_SHARE} of the partition's write limit. */
    static final double MAX_P99_MS = 1_000;
    static final double FRESHNESS_SHARE = 0.8;
    /** The shares of the limit the section reports the time split at. */
    private static final List<Double> REPORTED_SHARES = List.of(0.5, 0.8, 1.0);

    private AwsLatencyReport() {
    }

    static List<Report.Target> targets(AwsLatencyResults aws) {
        List<Report.Target> targets = new ArrayList<>();
        AwsLatencyResults.Point backlog = point(aws, AwsLatencyRun.TALLY, 0);
        if (backlog != null) {
            targets.add(new Report.Target("AWS-latency mode, events on: Tally sustains at least "
                    + fmt(MIN_RECORDS_PER_SEC, 0) + " records/s per shard (a backlog of " + backlog.arrived()
                    + " records)", fmt(backlog.recordsPerSec(), 0) + " records/s",
                    backlog.keptUp() && backlog.recordsPerSec() >= MIN_RECORDS_PER_SEC));
        }
        AwsLatencyResults.Point busy = point(aws, AwsLatencyRun.TALLY, FRESHNESS_SHARE);
        if (busy != null) {
            targets.add(new Report.Target("AWS-latency mode, events on: Tally's freshness p99 at most "
                    + fmt(MAX_P99_MS, 0) + " ms at " + fmt(100 * FRESHNESS_SHARE, 0) + "% of a partition's write limit ("
                    + fmt(busy.rate(), 0) + " records/s)", freshness(busy, busy.freshnessP99Millis()) + " ms",
                    busy.keptUp() && busy.freshnessP99Millis() <= MAX_P99_MS));
        }
        List<AwsLatencyResults.Point> tally = new ArrayList<>(aws.points().stream()
                .filter(p -> p.processor().equals(AwsLatencyRun.TALLY)).toList());
        if (aws.tuning() != null) {
            tally.addAll(aws.tuning());
        }
        long exact = tally.stream().filter(AwsLatencyResults.Point::exact).count();
        targets.add(new Report.Target("AWS-latency mode: exactly-once kept in every run of Tally (oracle exact)",
                exact + " of " + tally.size() + " exact", exact == tally.size() && !tally.isEmpty()));
        return targets;
    }

    static String section(AwsLatencyResults aws) {
        return section(aws, false);
    }

    /**
     * The section; as {@code history} when the CPU-confined model ({@code --aws-model}) is on the page too: then
     * headed as the earlier model it is, with its targets (no longer on the page's Targets table) inside it.
     */
    static String section(AwsLatencyResults aws, boolean history) {
        StringBuilder md = new StringBuilder(history
                ? "## On AWS, modelled with free CPU (history): one shard at AWS latencies, events on\n\n"
                : "## On AWS, modelled: one shard at AWS latencies, events on\n\n");
        if (history) {
            md.append("Kept as history: the model before the one above. Its function had the CPU of two host cores"
                    + " (time ran slower for the whole processor, not for the function alone), its freshness leaves out"
                    + " the stream's own delay, its latencies are thin-tailed, with no throttling and no PutEvents"
                    + " quota, and each rate ran once for a few seconds. Its targets, met in that model:\n\n");
            md.append(Report.targetTable(targets(aws))).append('\n');
        }
        md.append("DynamoDB Local answers in about a millisecond and the local bus in less, so the replays above cannot"
                + " say how a shard keeps up on AWS. In this mode (`--aws-latency`, " + aws.date() + ") every DynamoDB"
                + " and EventBridge call of both processors takes as long as the model below says: an SDK execution"
                + " interceptor draws a latency per call, lets the local service do the real work, and holds the"
                + " answer for what is left of the draw. One shard's records (the zipf mix of every domain, with their"
                + " events) arrive at a steady rate; a model of the event source mapping hands them over as Lambda does"
                + " with the template's settings: one invocation at a time (`ParallelizationFactor: 1`), up to "
                + aws.batchSize() + " records, at once (`MaximumBatchingWindowInSeconds: 0`), polling again as soon as"
                + " an invocation returns and every " + aws.idlePollMillis() + " ms while the shard is idle (\"a base"
                + " rate of 4 times per second\", Lambda Developer Guide, \"Using AWS Lambda with Amazon DynamoDB\")."
                + " Freshness is the time from a record's write to the return of the invocation that processed it;"
                + " the stream's own delay before a record can be read is not modelled. Rates are shares of a"
                + " partition's write limit, " + fmt(aws.partitionWritesPerSec(), 0) + " writes a second (DynamoDB"
                + " Developer Guide, \"Partitions and data distribution\"), the most a shard of the table's stream"
                + " carries. Each steady rate runs " + aws.arrivalSeconds() + " s of arrivals, with as long again to"
                + " finish; each run has a table of its own and ends with the oracle.\n\n");
        if (aws.timeScale() > 1) {
            md.append("Time runs " + fmt(aws.timeScale(), 0) + " times slower (`--aws-time-scale`): every drawn latency,"
                    + " the processor's own work in an invocation (by a pause after it), the arrivals and the polls"
                    + " take " + fmt(aws.timeScale(), 0) + " times as long, and every figure below is divided back."
                    + " DynamoDB Local's own time, which on this machine is about the model's DynamoDB latency once a"
                    + " few writes queue for its lock, then stays within the draw for most calls; the last table says"
                    + " for how many it did not.\n\n");
        }

        md.append("### The latency model\n\n");
        MarkdownTable model = new MarkdownTable().left("Service", "Operation").right("p50 (ms)", "p99 (ms)")
                .left("Source");
        for (LatencyModel.Operation operation : aws.model()) {
            model.row(operation.service(), operation.operation(), fmt(operation.p50Millis(), 0),
                    fmt(operation.p99Millis(), 0), operation.source());
        }
        md.append(model.render()).append('\n');
        md.append("Each operation's latency is log-normal with that median and 99th percentile, drawn afresh for every"
                + " attempt.\n\n");

        md.append("### Records a second per shard: a backlog\n\n");
        md.append("Every record there at the start: the most records a second the processor takes.\n\n");
        MarkdownTable backlog = new MarkdownTable().left("Processor").right("records", "seconds", "records/s",
                "invocations", "mean batch").left("exact");
        for (AwsLatencyResults.Point p : aws.points()) {
            if (p.backlog()) {
                backlog.row(p.processor(), p.processed() + (p.processed() < p.arrived() ? " of " + p.arrived() : ""),
                        fmt(p.seconds(), 1), fmt(p.recordsPerSec(), 0), p.invocations(), fmt(p.meanBatch(), 0),
                        p.exact() ? "yes" : "no (" + p.differences() + ")");
            }
        }
        md.append(backlog.render()).append('\n');
        AwsLatencyResults.Point tallyBacklog = point(aws, AwsLatencyRun.TALLY, 0);
        AwsLatencyResults.Point naiveBacklog = point(aws, AwsLatencyRun.NAIVE, 0);
        if (tallyBacklog != null && naiveBacklog != null && naiveBacklog.recordsPerSec() > 0) {
            md.append("Tally takes ").append(fmt(tallyBacklog.recordsPerSec() / naiveBacklog.recordsPerSec(), 1))
                    .append("x the naive processor's records a second here, side by side in one run.\n\n");
        }

        md.append("### Freshness against the arrival rate\n\n");
        md.append("![Freshness p50 and p99 against the arrival rate, Tally and the naive processor](")
                .append("bench/results/aws-freshness.png)\n\n");
        MarkdownTable rates = new MarkdownTable().left("Processor").right("share of the limit", "records/s arriving",
                "processed", "records/s").left("kept up").right("freshness p50 (ms)", "p99 (ms)", "max (ms)",
                "invocations", "mean batch").left("exact");
        for (AwsLatencyResults.Point p : aws.points()) {
            if (!p.backlog()) {
                rates.row(p.processor(), fmt(100 * p.share(), 0) + "%", fmt(p.rate(), 0),
                        p.processed() + " of " + p.arrived(), fmt(p.recordsPerSec(), 0), p.keptUp() ? "yes" : "**no**",
                        freshness(p, p.freshnessP50Millis()), freshness(p, p.freshnessP99Millis()),
                        freshness(p, p.freshnessMaxMillis()), p.invocations(), fmt(p.meanBatch(), 0),
                        p.exact() ? "yes" : "no (" + p.differences() + ")");
            }
        }
        md.append(rates.render()).append('\n');
        md.append("A processor that does not keep up falls further behind every second; its figures are then lower"
                + " bounds (\"at least\"): a record not processed by the end of the run counts the time it had waited"
                + " by then.\n\n");

        if (aws.tuning() != null && !aws.tuning().isEmpty()) {
            md.append("### Calls in flight, side by side\n\n");
            md.append("Tally's backlog of " + aws.tuning().get(0).arrived() + " records under each setting, one after"
                    + " another in this run, on tables of their own. The first is the deployed function's; \"before\""
                    + " is the engine as it was before events were published concurrently.\n\n");
            double deployed = aws.tuning().get(0).recordsPerSec();
            MarkdownTable tuning = new MarkdownTable().left("Setting").right("derived writes in flight",
                    "PutEvents calls in flight", "records/s", "against the deployed setting", "DynamoDB",
                    "EventBridge", "own code").left("exact");
            for (AwsLatencyResults.Point p : aws.tuning()) {
                double busy = p.busySeconds();
                tuning.row(p.setting(), p.writesInFlight(), p.publishesInFlight(), fmt(p.recordsPerSec(), 0),
                        fmt(p.recordsPerSec() / deployed, 2) + "x", share(p.dynamoDbSeconds(), busy),
                        share(p.eventBridgeSeconds(), busy), share(p.ownSeconds(), busy),
                        p.exact() ? "yes" : "no (" + p.differences() + ")");
            }
            md.append(tuning.render()).append('\n');
        }

        md.append("### Where an invocation's time goes\n\n");
        md.append("Inside the invocations: the time with at least one DynamoDB call in flight, with at least one"
                + " PutEvents call in flight, and with none (the processor's own code: derivation, planning,"
                + " serialization, the JVM).\n\n");
        MarkdownTable split = new MarkdownTable().left("Processor", "run").right("time in invocations (s)",
                "DynamoDB", "EventBridge", "own code", "DynamoDB calls", "PutEvents calls");
        for (AwsLatencyResults.Point p : aws.points()) {
            if (p.backlog() || REPORTED_SHARES.contains(p.share())) {
                double busy = p.busySeconds();
                split.row(p.processor(), label(p), fmt(busy, 1), share(p.dynamoDbSeconds(), busy),
                        share(p.eventBridgeSeconds(), busy), share(p.ownSeconds(), busy), p.dynamoDbCalls(),
                        p.putEventsCalls());
            }
        }
        md.append(split.render()).append('\n');

        md.append("### How far DynamoDB Local still bounds these figures\n\n");
        md.append("DynamoDB Local runs every write to a table under one lock, so its answer to a write waits for the"
                + " writes before it. A call whose local time exceeds the latency drawn for it (times the time scale)"
                + " takes the local time: that part of the figure measures the emulator, not AWS, and makes the"
                + " processor look slower than on AWS. Shares of the DynamoDB calls, and of their summed time:\n\n");
        MarkdownTable bound = new MarkdownTable().left("Processor", "run").right("DynamoDB calls",
                "calls slower than the model", "time beyond the model", "share of the calls' time");
        for (AwsLatencyResults.Point p : aws.points()) {
            if (p.backlog() || REPORTED_SHARES.contains(p.share())) {
                double drawn = p.calls() == null ? 0 : p.calls().stream()
                        .filter(op -> op.operation().startsWith("DynamoDB/"))
                        .mapToDouble(CallTimes.OperationFigures::modelledMillis).sum() / 1e3;
                bound.row(p.processor(), label(p), p.dynamoDbCalls(), share(p.beyondModelCalls(), p.dynamoDbCalls()),
                        fmt(p.beyondModelSeconds(), 2) + " s",
                        share(p.beyondModelSeconds(), drawn + p.beyondModelSeconds()));
            }
        }
        md.append(bound.render()).append('\n');
        if (tallyBacklog != null && tallyBacklog.calls() != null) {
            md.append("Per operation, in Tally's backlog run: the latency drawn (in the model's time) and the local"
                    + " service's own time (as measured), per call on average.\n\n");
            MarkdownTable operations = new MarkdownTable().left("Operation").right("calls", "drawn (ms)",
                    "local (ms)", "calls slower than the draw");
            for (CallTimes.OperationFigures op : tallyBacklog.calls()) {
                if (op.calls() > 0) {
                    operations.row(op.operation(), op.calls(), fmt(op.modelledMillis() / op.calls(), 1),
                            fmt(op.localMillis() / op.calls(), 1), share(op.beyondModel(), op.calls()));
                }
            }
            md.append(operations.render()).append('\n');
        }
        return md.toString();
    }

    private static String label(AwsLatencyResults.Point p) {
        return p.backlog() ? "backlog" : fmt(100 * p.share(), 0) + "% (" + fmt(p.rate(), 0) + "/s)";
    }

    private static String freshness(AwsLatencyResults.Point p, double millis) {
        return (p.keptUp() ? "" : "at least ") + fmt(millis, 0);
    }

    private static String share(double part, double whole) {
        return whole > 0 ? fmt(100 * part / whole, 0) + "%" : "n/a";
    }

    static AwsLatencyResults.Point point(AwsLatencyResults aws, String processor, double share) {
        return aws.points().stream().filter(p -> p.processor().equals(processor) && p.share() == share).findFirst()
                .orElse(null);
    }
}
