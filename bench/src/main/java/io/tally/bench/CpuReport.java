package io.tally.bench;

import java.util.List;

/** The BENCHMARKS.md section on where each processor's CPU goes during its replay. */
final class CpuReport {
    static final String DYNAMODB_LOCAL = "DynamoDB Local (its HTTP server and SQLite threads)";
    static final String GC = "the JVM: garbage collection";
    static final String JIT = "the JVM: the JIT compiler";
    static final String REST = "the rest: the JVM's other threads, the benchmark's samplers, threads that ended";

    private CpuReport() {
    }

    /** One row of a workload's table: a part's CPU milliseconds per record for Tally and for the naive processor. */
    record Row(String part, double tallyMs, double naiveMs) {
    }

    /**
     * A workload's CPU per record, split: DynamoDB Local's threads and the JVM's own as measured per thread, the
     * processor's threads by their share of the execution samples. Empty when either processor has no profile or no
     * per-thread figure (a run before they were measured).
     */
    static List<Row> rows(Results.WorkloadResult w) {
        if (!profiled(w.tally()) || !profiled(w.naive())) {
            return List.of();
        }
        List<Row> rows = new java.util.ArrayList<>();
        rows.add(new Row(DYNAMODB_LOCAL, perRecord(w.tally(), w.tally().cpu().dynamoDbLocalSeconds()),
                perRecord(w.naive(), w.naive().cpu().dynamoDbLocalSeconds())));
        for (Results.Share part : w.tally().profile().parts()) {
            rows.add(new Row(part.name(), partMs(w.tally(), part.name()), partMs(w.naive(), part.name())));
        }
        rows.add(new Row(GC, perRecord(w.tally(), w.tally().cpu().gcSeconds()),
                perRecord(w.naive(), w.naive().cpu().gcSeconds())));
        rows.add(new Row(JIT, perRecord(w.tally(), w.tally().cpu().jitSeconds()),
                perRecord(w.naive(), w.naive().cpu().jitSeconds())));
        rows.add(new Row(REST, perRecord(w.tally(), restSeconds(w.tally().cpu())),
                perRecord(w.naive(), restSeconds(w.naive().cpu()))));
        return rows;
    }

    static String section(Results results) {
        StringBuilder md = new StringBuilder();
        for (Results.WorkloadResult w : results.workloads()) {
            List<Row> rows = rows(w);
            if (rows.isEmpty()) {
                continue;
            }
            if (md.length() == 0) {
                md.append("## Where the CPU goes\n\n");
                md.append("CPU milliseconds per replayed record, split by where they were spent. DynamoDB Local's "
                        + "threads and the JVM's garbage-collector and JIT-compiler threads are measured per thread "
                        + "(the JVM's from /proc); the processor's threads (the engine's "
                        + "pool and the replay's thread) are split by a JDK Flight Recorder profile of the same replay, "
                        + "one execution sample every ").append(Profiler.PERIOD.toMillis()).append(" ms of a running "
                        + "thread, each filed under the innermost frame outside the JDK (the JDK code a library calls "
                        + "counts as that library's). The processor's threads are the ones to make cheaper: every "
                        + "request costs the client a signature, a JSON body both ways and an HTTP exchange whatever "
                        + "the server.\n\n");
            }
            md.append("**").append(w.name()).append("**\n\n");
            MarkdownTable table = new MarkdownTable().left("Part")
                    .right("Tally (ms/record)", "Tally share", "naive (ms/record)", "naive share");
            double tallyAll = perRecord(w.tally(), w.tally().cpu().processSeconds());
            double naiveAll = perRecord(w.naive(), w.naive().cpu().processSeconds());
            for (Row row : rows) {
                table.row(row.part(), Report.fmt(row.tallyMs(), 3), Report.fmt(100 * row.tallyMs() / tallyAll, 0) + "%",
                        Report.fmt(row.naiveMs(), 3), Report.fmt(100 * row.naiveMs() / naiveAll, 0) + "%");
            }
            table.row("**all** (the process)", Report.fmt(tallyAll, 3), "100%", Report.fmt(naiveAll, 3), "100%");
            md.append(table.render()).append('\n');
            Results.Profile profile = w.tally().profile();
            md.append("Tally's hottest methods (innermost frame outside the JDK; share of its threads' ")
                    .append(profile.samples()).append(" samples): ");
            List<String> methods = profile.methods().stream()
                    .map(m -> "`" + m.name() + "` " + Report.fmt(100.0 * m.samples() / profile.samples(), 1) + "%")
                    .toList();
            md.append(String.join(", ", methods)).append(".\n\n");
        }
        return md.toString();
    }

    private static boolean profiled(Results.ProcessorResult p) {
        return p.profile() != null && p.profile().samples() > 0 && p.cpu() != null && p.cpu().processorSeconds() > 0;
    }

    /** The processor threads' CPU per record times the part's share of their samples. */
    private static double partMs(Results.ProcessorResult p, String part) {
        int samples = p.profile().parts().stream().filter(s -> s.name().equals(part)).mapToInt(Results.Share::samples)
                .sum();
        double share = (double) samples / p.profile().samples();
        return perRecord(p, p.cpu().processorSeconds() * share);
    }

    /** The process's CPU on none of the measured threads. */
    static double restSeconds(Results.Cpu cpu) {
        return Math.max(0, cpu.processSeconds() - cpu.dynamoDbLocalSeconds() - cpu.processorSeconds()
                - cpu.gcSeconds() - cpu.jitSeconds());
    }

    private static double perRecord(Results.ProcessorResult p, double seconds) {
        return 1000 * seconds / p.records();
    }
}
