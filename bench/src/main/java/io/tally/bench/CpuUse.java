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

    private final long processNanos;
    private final long wallNanos;
    private final Map<Long, Long> dynamoDbLocalThreads;

    private CpuUse(long processNanos, long wallNanos, Map<Long, Long> dynamoDbLocalThreads) {
        this.processNanos = processNanos;
        this.wallNanos = wallNanos;
        this.dynamoDbLocalThreads = dynamoDbLocalThreads;
    }

    /** DynamoDB Local 3.x's threads: its Jetty pool ({@code qtp...}) and its SQLite job queue ({@code SQLiteQueue...}). */
    static boolean isDynamoDbLocal(String threadName) {
        return threadName != null && (threadName.startsWith("qtp") || threadName.startsWith("SQLiteQueue"));
    }

    static CpuUse now() {
        Map<Long, Long> dynamo = new HashMap<>();
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
            if (info != null && isDynamoDbLocal(info.getThreadName())) {
                long cpu = THREADS.getThreadCpuTime(info.getThreadId());
                if (cpu >= 0) {
                    dynamo.put(info.getThreadId(), cpu);
                }
            }
        }
        return new CpuUse(processCpuNanos(), System.nanoTime(), dynamo);
    }

    /** The CPU used from {@code start} to now. */
    static Results.Cpu since(CpuUse start) {
        CpuUse end = now();
        long dynamo = 0;
        for (Map.Entry<Long, Long> thread : end.dynamoDbLocalThreads.entrySet()) {
            dynamo += thread.getValue() - start.dynamoDbLocalThreads.getOrDefault(thread.getKey(), 0L);
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
