package io.tally.bench;

/** The BENCHMARKS.md section of the load mode ({@link LoadRun}). */
final class LoadReport {
    private LoadReport() {
    }

    /** The "Load" section: the local runner's HTTP front under many concurrent connections ({@link LoadRun}). */
    static String loadSection(Results.Load l) {
        StringBuilder md = new StringBuilder("## Load\n\n");
        md.append("The local runner (`tally-local`, in memory, in the benchmark's JVM) driven over HTTP by ")
                .append(l.connections()).append(" connections for ").append(Report.fmt(l.seconds(), 0))
                .append(" s, each with one request in flight: 45% writes (posts and comments, which are "
                        + "transactions; catalogue items, a single put), 55% reads (a post, a user's posts, a user's "
                        + "stats, the global stats). Latency is from sending a request to reading its whole answer. "
                        + "Checked: no 5xx but 503 with `Retry-After` (shed, not acknowledged), no other unexpected "
                        + "answer, every acknowledged write read back, the derived data equal to the recomputation "
                        + "once the stream has drained. Alone: `java -jar bench/target/tally-bench.jar --load` "
                        + "(`--load-seconds S`, `--load-connections N`).\n\n");
        md.append(new MarkdownTable()
                .right("Connections", "Seconds", "Requests", "Requests/s", "Writes acknowledged", "Reads", "503 shed",
                        "Unexpected", "p50 (ms)", "p99 (ms)", "max (ms)", "write p50 / p99 (ms)",
                        "read p50 / p99 (ms)", "peak heap (MB)")
                .row(l.connections(), Report.fmt(l.seconds(), 1), l.requests(), Report.fmt(l.requestsPerSec(), 0),
                        l.writesAcknowledged(), l.readsOk(), l.shed(), l.unexpected(), Report.fmt(l.p50Ms(), 0),
                        Report.fmt(l.p99Ms(), 0), Report.fmt(l.maxMs(), 0),
                        Report.fmt(l.writeP50Ms(), 0) + " / " + Report.fmt(l.writeP99Ms(), 0),
                        Report.fmt(l.readP50Ms(), 0) + " / " + Report.fmt(l.readP99Ms(), 0), l.peakHeapMb())
                .render()).append('\n');
        md.append(new MarkdownTable()
                .right("Acknowledged posts", "comments", "items", "missing afterwards", "drain after the run (s)")
                .left("exact after the drain")
                .row(l.posts(), l.comments(), l.items(), l.missing(), Report.fmt(l.drainSeconds(), 1),
                        l.exactAfterDrain() ? "yes" : "no (" + l.differences() + " attributes)")
                .render()).append('\n');
        if (!l.unexpectedSamples().isEmpty()) {
            md.append("Unexpected answers (first ").append(l.unexpectedSamples().size()).append("):\n\n");
            l.unexpectedSamples().forEach(sample -> md.append("- `").append(sample.replace('`', '\'')).append("`\n"));
            md.append('\n');
        }
        if (!l.missingSamples().isEmpty()) {
            md.append("Missing acknowledged writes (first ").append(l.missingSamples().size()).append("):\n\n");
            l.missingSamples().forEach(sample -> md.append("- `").append(sample).append("`\n"));
            md.append('\n');
        }
        md.append("Peak heap is the benchmark process's, which hosts DynamoDB Local, the runner and the clients. "
                + "The figures are DynamoDB Local's on a shared machine: its writes go through one SQLite connection, "
                + "so they measure the front and the pipeline under contention, not DynamoDB.\n\n");
        return md.toString();
    }
}
