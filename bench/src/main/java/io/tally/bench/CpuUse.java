package io.tally.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a phase's CPU time went: the whole process's, and the part of it spent on DynamoDB Local's own threads (its
 * HTTP server's request threads and the single thread that runs every SQLite statement). The benchmark's JVM hosts
 * DynamoDB Local, so the rest is the processor, its SDK client and the JVM. A thread that ends during the phase is
 * left out of the split (not of the total); DynamoDB Local's threads live as long as the server.
 */
final class CpuUse {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Logger LOG = LoggerFactory.getLogger(CpuUse.class);

    private final long processNanos;
    private final long wallNanos;
    /** Every live thread's CPU, by id, with its name's digits dropped (a pool's threads share a group name). */
    private final Map<Long, Map.Entry<String, Long>> threads;

    private CpuUse(long processNanos, long wallNanos, Map<Long, Map.Entry<String, Long>> threads) {
        this.processNanos = processNanos;
        this.wallNanos = wallNanos;
        this.threads = threads;
    }

    /** DynamoDB Local 3.x's threads: its Jetty pool ({@code qtp...}) and its SQLite job queue ({@code SQLiteQueue...}). */
    static boolean isDynamoDbLocal(String threadName) {
        return threadName != null && (threadName.startsWith("qtp") || threadName.startsWith("SQLiteQueue"));
    }

    static CpuUse now() {
        Map<Long, Map.Entry<String, Long>> all = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = THREADS.getThreadCpuTime(info.getThreadId());
            if (cpu < 0) {
                continue;
            }
            all.put(info.getThreadId(), Map.entry(info.getThreadName().replaceAll("[0-9]+", "N"), cpu));
        }
        return new CpuUse(processCpuNanos(), System.nanoTime(), all);
    }

    /** The CPU used from {@code start} to now. */
    static Results.Cpu since(CpuUse start) {
        CpuUse end = now();
        Map<String, Long> byGroup = new TreeMap<>();
        end.threads.forEach((id, thread) -> {
            Map.Entry<String, Long> before = start.threads.get(id);
            byGroup.merge(thread.getKey(), thread.getValue() - (before == null ? 0L : before.getValue()), Long::sum);
        });
        long dynamo = byGroup.entrySet().stream().filter(group -> isDynamoDbLocal(group.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        if (LOG.isDebugEnabled()) {
            LOG.debug("CPU seconds by thread group: {}", byGroup.entrySet().stream()
                    .filter(e -> e.getValue() > 10_000_000L)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .map(e -> e.getKey() + "=" + Report.fmt(e.getValue() / 1e9, 2))
                    .collect(Collectors.joining(", ")));
        }
        double wall = (end.wallNanos - start.wallNanos) / 1e9;
        double process = (end.processNanos - start.processNanos) / 1e9;
        return new Results.Cpu(process, wall, dynamo / 1e9);
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
