package io.tally.bench;

import java.util.stream.Collectors;

/** The BENCHMARKS.md section of the writer mode ({@link WriterRun}). */
final class WriterReport {
    /** Issue 16's writer target: through the front and handler at least this share of the raw SDK calls' rate. */
    static final double MIN_WRITER_RATIO = 0.8;

    private WriterReport() {
    }

    static Report.Target target(Results.Writer w) {
        return new Report.Target("Writer: requests/s through the local front and handler at least "
                + Report.fmt(MIN_WRITER_RATIO, 1) + "x of raw SDK calls doing the same DynamoDB work (" + w.threads()
                + " threads each)", Report.fmt(w.ratio(), 2) + "x", w.ratio() >= MIN_WRITER_RATIO);
    }

    static String section(Results.Writer w) {
        StringBuilder md = new StringBuilder("## Writer: the front against raw SDK calls\n\n");
        md.append(w.threads()).append(" client threads, each with one request in flight on a kept-alive connection "
                + "(the JDK's `HttpURLConnection`, which the SDK's URL connection client uses too), send ")
                .append(w.requestsPerThread()).append(" writes each through the local runner's HTTP front "
                        + "(`tally-local`, in memory, its stream pipeline running): a user, then in turn a post, three "
                        + "comments on it (transactions) and two catalogue items (a put). The DynamoDB calls the writer "
                        + "makes for them are recorded and then sent again, each thread its own in order, by "
                        + w.threads() + " threads sharing one SDK client built as the writer's, to a second fresh "
                        + "runner: the same calls, the same concurrency, the same kind of server, and none refused. "
                        + "Every answer through the front was a 2xx. A half is timed from the first request to the "
                        + "last answer; its *drain* is the time after that until the pipeline had processed all its "
                        + "records (not timed in the ratio: the pipeline shares the two cores, and it keeps up better "
                        + "with the slower half, which that half pays for). Rounds alternate the two, after an "
                        + "unreported warm-up pair. Alone: `java -jar bench/target/tally-bench.jar --writer` "
                        + "(`--writer-requests N` per thread, `--writer-rounds N`).\n\n");
        MarkdownTable rounds = new MarkdownTable().right("Round", "API requests", "DynamoDB calls")
                .left("calls by operation")
                .right("front (s)", "front requests/s", "raw (s)", "raw requests/s", "front / raw",
                        "front p50 / p99 (ms)", "drain after front / raw (s)");
        for (Results.WriterRound r : w.rounds()) {
            rounds.row(r.round(), r.requests(), r.calls(), r.callsByOperation().entrySet().stream()
                            .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")),
                    Report.fmt(r.frontSeconds(), 1), Report.fmt(r.requests() / r.frontSeconds(), 0),
                    Report.fmt(r.rawSeconds(), 1), Report.fmt(r.requests() / r.rawSeconds(), 0),
                    Report.fmt(r.ratio(), 2) + "x",
                    Report.fmt(r.frontP50Ms(), 1) + " / " + Report.fmt(r.frontP99Ms(), 1),
                    Report.fmt(r.frontDrainSeconds(), 1) + " / " + Report.fmt(r.rawDrainSeconds(), 1));
        }
        rounds.row("**all**", "", "", "", "", Report.fmt(w.frontPerSec(), 0), "", Report.fmt(w.rawPerSec(), 0),
                "**" + Report.fmt(w.ratio(), 2) + "x**", "", "");
        md.append(rounds.render()).append('\n');
        md.append("CPU per API request in each half (milliseconds; the whole process, which hosts the clients, the "
                + "front and the writer, the stream pipeline and DynamoDB Local; and DynamoDB Local's own threads). The "
                + "difference between the halves is what the front, the handler and the HTTP client add.\n\n");
        MarkdownTable cpu = new MarkdownTable().right("Round", "front: CPU per request", "of which DynamoDB Local",
                "cores busy", "raw: CPU per request", "of which DynamoDB Local", "cores busy", "added by the front");
        for (Results.WriterRound r : w.rounds()) {
            if (r.frontCpu() == null || r.rawCpu() == null) {
                continue;
            }
            double front = 1000 * r.frontCpu().processSeconds() / r.requests();
            double raw = 1000 * r.rawCpu().processSeconds() / r.requests();
            cpu.row(r.round(), Report.fmt(front, 2),
                    Report.fmt(1000 * r.frontCpu().dynamoDbLocalSeconds() / r.requests(), 2),
                    Report.fmt(r.frontCpu().coresBusy(), 2), Report.fmt(raw, 2),
                    Report.fmt(1000 * r.rawCpu().dynamoDbLocalSeconds() / r.requests(), 2),
                    Report.fmt(r.rawCpu().coresBusy(), 2), Report.fmt(front - raw, 2));
        }
        md.append(cpu.render()).append('\n');
        return md.toString();
    }
}
