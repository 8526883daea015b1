package io.tally.bench.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The JIT compiler threads of a process (HotSpot names them {@code C1 CompilerThreadN} and {@code C2
 * CompilerThreadN}; the kernel keeps the first 15 characters), read from {@code /proc}: the model takes them out of the
 * function's CPU quota ({@link CpuQuota#exempt}) and their CPU out of a record's, so that a measured run sees the
 * function's steady state, not its JIT at work (a function that has run a while has compiled what it runs).
 */
final class CompilerThreads {
    /** The start of a compiler thread's name, as {@code /proc/<pid>/task/<tid>/comm} shows it. */
    static final List<String> NAMES = List.of("C1 CompilerThre", "C2 CompilerThre");
    /** The kernel's clock ticks a second in {@code /proc}'s CPU times ({@code USER_HZ}: 100 on Linux). */
    static final long TICKS_PER_SECOND = 100;

    private CompilerThreads() {
    }

    /** The thread ids of the process's compiler threads now; none where {@code /proc} cannot be read. */
    static List<Long> of(long pid) {
        List<Long> threads = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                if (isCompiler(read(task.resolve("comm")))) {
                    threads.add(Long.parseLong(task.getFileName().toString()));
                }
            }
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
        return threads;
    }

    static boolean isCompiler(String comm) {
        return NAMES.stream().anyMatch(comm.strip()::startsWith);
    }

    /** The CPU time the given threads of the process have used, in nanoseconds (those that have ended count 0). */
    static long cpuNanos(long pid, List<Long> threads) {
        long ticks = 0;
        for (long thread : threads) {
            String stat = read(Path.of("/proc", Long.toString(pid), "task", Long.toString(thread), "stat"));
            if (!stat.isEmpty()) {
                ticks += ticks(stat);
            }
        }
        return ticks * 1_000_000_000L / TICKS_PER_SECOND;
    }

    /**
     * A thread's user and system time in clock ticks, from its {@code stat} line: fields 14 and 15, counted after the
     * name's closing parenthesis (a name may hold spaces and parentheses).
     */
    static long ticks(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        // fields[0] is the third field (state): utime is the 14th, stime the 15th.
        return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "";
        }
    }
}
