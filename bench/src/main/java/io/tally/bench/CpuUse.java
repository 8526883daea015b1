package io.tally.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a phase's CPU time went: the whole process's, and the part of it spent on DynamoDB Local's own threads (its
 * HTTP server's request threads and the single thread that runs every SQLite statement). The benchmark's JVM hosts
 * DynamoDB Local, so the rest is the processor, its SDK client and the JVM. A thread that ends during the phase is
 * left out of the split (not of the total); DynamoDB Local's threads live as long as the server.
 */
final class CpuUse {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(CpuUse.class);

    private final long processNanos;
    private final long wallNanos;
    private final Map<Long, Long> dynamoDbLocalThreads;
    /** Every live thread's CPU by its name with digits dropped (a pool's threads together): for the log. */
    private final Map<Long, Map.Entry<String, Long>> allThreads;

    private CpuUse(long processNanos, long wallNanos, Map<Long, Long> dynamoDbLocalThreads,
            Map<Long, Map.Entry<String, Long>> allThreads) {
        this.processNanos = processNanos;
        this.wallNanos = wallNanos;
        this.dynamoDbLocalThreads = dynamoDbLocalThreads;
        this.allThreads = allThreads;
    }

    /** DynamoDB Local 3.x's threads: its Jetty pool ({@code qtp...}) and its SQLite job queue ({@code SQLiteQueue...}). */
    static boolean isDynamoDbLocal(String threadName) {
        return threadName != null && (threadName.startsWith("qtp") || threadName.startsWith("SQLiteQueue"));
    }

    static CpuUse now() {
        Map<Long, Long> dynamo = new HashMap<>();
        Map<Long, Map.Entry<String, Long>> all = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info == null) {
                continue;
            }
            long cpu = THREADS.getThreadCpuTime(info.getThreadId());
            if (cpu < 0) {
                continue;
            }
            if (isDynamoDbLocal(info.getThreadName())) {
                dynamo.put(info.getThreadId(), cpu);
            }
            all.put(info.getThreadId(), Map.entry(info.getThreadName().replaceAll("[0-9]+", "N"), cpu));
        }
        return new CpuUse(processCpuNanos(), System.nanoTime(), dynamo, all);
    }

    /** The CPU used from {@code start} to now. */
    static Results.Cpu since(CpuUse start) {
        CpuUse end = now();
        long dynamo = 0;
        for (Map.Entry<Long, Long> thread : end.dynamoDbLocalThreads.entrySet()) {
            dynamo += thread.getValue() - start.dynamoDbLocalThreads.getOrDefault(thread.getKey(), 0L);
        }
        if (LOG.isDebugEnabled()) {
            Map<String, Long> byGroup = new java.util.TreeMap<>();
            end.allThreads.forEach((id, thread) -> byGroup.merge(thread.getKey(), thread.getValue()
                    - (start.allThreads.containsKey(id) ? start.allThreads.get(id).getValue() : 0L), Long::sum));
            LOG.debug("CPU seconds by thread group: {}", byGroup.entrySet().stream()
                    .filter(e -> e.getValue() > 10_000_000L)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .map(e -> e.getKey() + "=" + Report.fmt(e.getValue() / 1e9, 2))
                    .collect(java.util.stream.Collectors.joining(", ")));
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
