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
        md.append("| Round | API requests | DynamoDB calls | calls by operation | front (s) | front requests/s "
                + "| raw (s) | raw requests/s | front / raw | front p50 / p99 (ms) | drain after front / raw (s) |\n");
        md.append("|---:|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Results.WriterRound r : w.rounds()) {
            md.append("| ").append(r.round()).append(" | ").append(r.requests()).append(" | ").append(r.calls())
                    .append(" | ").append(r.callsByOperation().entrySet().stream()
                            .map(e -> e.getKey() + " " + e.getValue()).collect(Collectors.joining(", ")))
                    .append(" | ").append(Report.fmt(r.frontSeconds(), 1)).append(" | ")
                    .append(Report.fmt(r.requests() / r.frontSeconds(), 0)).append(" | ")
                    .append(Report.fmt(r.rawSeconds(), 1)).append(" | ")
                    .append(Report.fmt(r.requests() / r.rawSeconds(), 0)).append(" | ")
                    .append(Report.fmt(r.ratio(), 2)).append("x | ").append(Report.fmt(r.frontP50Ms(), 1))
                    .append(" / ").append(Report.fmt(r.frontP99Ms(), 1)).append(" | ")
                    .append(Report.fmt(r.frontDrainSeconds(), 1)).append(" / ")
                    .append(Report.fmt(r.rawDrainSeconds(), 1)).append(" |\n");
        }
        md.append("| **all** | | | | | ").append(Report.fmt(w.frontPerSec(), 0)).append(" | | ")
                .append(Report.fmt(w.rawPerSec(), 0)).append(" | **").append(Report.fmt(w.ratio(), 2))
                .append("x** | | |\n\n");
        md.append("CPU per API request in each half (milliseconds; the whole process, which hosts the clients, the "
                + "front and the writer, the stream pipeline and DynamoDB Local; and DynamoDB Local's own threads). The "
                + "difference between the halves is what the front, the handler and the HTTP client add.\n\n");
        md.append("| Round | front: CPU per request | of which DynamoDB Local | cores busy | raw: CPU per request "
                + "| of which DynamoDB Local | cores busy | added by the front |\n");
        md.append("|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Results.WriterRound r : w.rounds()) {
            if (r.frontCpu() == null || r.rawCpu() == null) {
                continue;
            }
            double front = 1000 * r.frontCpu().processSeconds() / r.requests();
            double raw = 1000 * r.rawCpu().processSeconds() / r.requests();
            md.append("| ").append(r.round()).append(" | ").append(Report.fmt(front, 2)).append(" | ")
                    .append(Report.fmt(1000 * r.frontCpu().dynamoDbLocalSeconds() / r.requests(), 2)).append(" | ")
                    .append(Report.fmt(r.frontCpu().coresBusy(), 2)).append(" | ").append(Report.fmt(raw, 2))
                    .append(" | ").append(Report.fmt(1000 * r.rawCpu().dynamoDbLocalSeconds() / r.requests(), 2))
                    .append(" | ").append(Report.fmt(r.rawCpu().coresBusy(), 2)).append(" | ")
                    .append(Report.fmt(front - raw, 2)).append(" |\n");
        }
        md.append('\n');
        return md.toString();
    }
}
