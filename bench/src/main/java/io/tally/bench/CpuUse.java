package io.tally.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a phase's CPU time went: the whole process's, and the part of it spent on DynamoDB Local's own threads (its
 * HTTP server's request threads and the single thread that runs every SQLite statement). The benchmark's JVM hosts
 * DynamoDB Local, so the rest is the processor, its SDK client and the JVM; of it, the part on the processor's own Java
 * threads (every thread but DynamoDB Local's and the benchmark's samplers) is measured too, and so, on Linux, are the
 * JVM's own garbage-collector and JIT-compiler threads (from /proc: {@link ThreadMXBean} does not list them). A thread
 * that ends during the phase is left out of the split (not of the total); DynamoDB Local's threads live as long as the
 * server.
 */
final class CpuUse {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final Logger LOG = LoggerFactory.getLogger(CpuUse.class);

    /** Linux's clock ticks per second in /proc (USER_HZ, 100 on every architecture the JDK runs on). */
    private static final double TICKS_PER_SECOND = 100;
    private static final Path TASKS = Path.of("/proc/self/task");
    /** DynamoDB Local's one thread that runs every SQLite statement. */
    private static final String SQLITE = "SQLiteQueue";

    private final long processNanos;
    private final long wallNanos;
    /**
     * The JVM's garbage-collector and JIT-compiler threads' CPU in clock ticks, by Linux thread id (Linux only; else
     * empty): per thread, as the Java threads, since HotSpot starts and stops compiler threads as it needs them.
     */
    private final Map<Long, Map.Entry<String, Long>> jvmThreads;
    /** Every live thread's CPU, by id, with its name's digits dropped (a pool's threads share a group name). */
    private final Map<Long, Map.Entry<String, Long>> threads;

    private CpuUse(long processNanos, long wallNanos, Map<Long, Map.Entry<String, Long>> threads,
                   Map<Long, Map.Entry<String, Long>> jvmThreads) {
        this.processNanos = processNanos;
        this.wallNanos = wallNanos;
        this.threads = threads;
        this.jvmThreads = jvmThreads;
    }

    /** DynamoDB Local 3.x's threads: its Jetty pool ({@code qtp...}) and its SQLite job queue ({@code SQLiteQueue...}). */
    static boolean isDynamoDbLocal(String threadName) {
        return threadName != null && (threadName.startsWith("qtp") || threadName.startsWith(SQLITE));
    }

    /** The benchmark's own sampling threads (heap, table lock, flight recorder), neither the processor's nor DynamoDB Local's. */
    static boolean isTooling(String threadName) {
        return threadName != null && (SamplingThread.isSampler(threadName) || threadName.startsWith("JFR"));
    }

    /** The processor's threads: every Java thread but DynamoDB Local's and the benchmark's samplers. */
    static boolean isProcessor(String threadName) {
        return !isDynamoDbLocal(threadName) && !isTooling(threadName);
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
        return new CpuUse(processCpuNanos(), System.nanoTime(), all, jvmThreadTicks());
    }

    private static final String GC = "gc";
    private static final String JIT = "jit";

    /**
     * The CPU of the JVM's own threads, which {@link ThreadMXBean} does not list: the garbage collector's and the JIT
     * compiler's, by their names in /proc (HotSpot's: {@code GC Thread#0}, {@code G1 Conc#0}, {@code G1 Refine#0},
     * {@code C2 CompilerThread0}, ...), each as its group ({@code gc} or {@code jit}) and its ticks, by thread id.
     * Empty where there is no /proc.
     */
    static Map<Long, Map.Entry<String, Long>> jvmThreadTicks() {
        Map<Long, Map.Entry<String, Long>> ticks = new HashMap<>();
        if (!Files.isDirectory(TASKS)) {
            return ticks;
        }
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String group = jvmGroup(Files.readString(task.resolve("comm")).strip());
                    if (group != null) {
                        ticks.put(Long.parseLong(task.getFileName().toString()),
                                Map.entry(group, cpuTicks(Files.readString(task.resolve("stat")))));
                    }
                } catch (IOException | RuntimeException e) {
                    // The thread ended while being read: its CPU is left out, as for a Java thread that ends.
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot list {}", TASKS, e);
        }
        return ticks;
    }

    /** {@code gc}, {@code jit} or null, by a thread's name as Linux keeps it (its first 15 characters). */
    static String jvmGroup(String osName) {
        // G1 (the default) and the parallel collector; other collectors' threads fall under "the rest".
        if (osName.startsWith("GC Thread") || osName.startsWith("G1 ")) {
            return GC;
        }
        if (osName.startsWith("C1 CompilerThre") || osName.startsWith("C2 CompilerThre")
                || osName.startsWith("Sweeper thread")) {
            return JIT;
        }
        return null;
    }

    /** User plus system time from a /proc task's stat line (fields 14 and 15, after the parenthesised name). */
    static long cpuTicks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        // fields[0] is the state (field 3 of the line), so utime (field 14) is fields[11] and stime fields[12].
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
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
        long sqlite = byGroup.entrySet().stream().filter(group -> group.getKey().startsWith(SQLITE))
                .mapToLong(Map.Entry::getValue).sum();
        long processor = byGroup.entrySet().stream().filter(group -> isProcessor(group.getKey()))
                .mapToLong(Map.Entry::getValue).sum();
        Map<String, Long> jvm = new HashMap<>();
        end.jvmThreads.forEach((id, thread) -> {
            Map.Entry<String, Long> before = start.jvmThreads.get(id);
            jvm.merge(thread.getKey(), thread.getValue() - (before == null ? 0L : before.getValue()), Long::sum);
        });
        if (LOG.isDebugEnabled()) {
            LOG.debug("CPU seconds by thread group: {}", byGroup.entrySet().stream()
                    .filter(e -> e.getValue() > 10_000_000L)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                    .map(e -> e.getKey() + "=" + Report.fmt(e.getValue() / 1e9, 2))
                    .collect(Collectors.joining(", ")));
        }
        double wall = (end.wallNanos - start.wallNanos) / 1e9;
        double process = (end.processNanos - start.processNanos) / 1e9;
        return new Results.Cpu(process, wall, dynamo / 1e9, processor / 1e9,
                jvm.getOrDefault(GC, 0L) / TICKS_PER_SECOND, jvm.getOrDefault(JIT, 0L) / TICKS_PER_SECOND,
                sqlite / 1e9);
    }

    private static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }
}
