package io.tally.bench.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class CompilerThreadsTest {
    @Test
    void aThreadsCpuIsItsUserAndSystemTicksCountedAfterItsName() {
        // proc(5): pid (comm) state ppid ... utime (14th) stime (15th); a name may hold spaces and parentheses.
        String stat = "4242 (C2 CompilerThre) S 1 4240 4240 0 -1 4194368 2086 0 0 0 731 29 0 0 20 0 40 0 123";
        assertThat(CompilerThreads.ticks(stat)).isEqualTo(760);
        assertThat(CompilerThreads.ticks("7 (a) b (c) R 1 1 1 0 -1 0 0 0 0 0 5 6 0 0")).isEqualTo(11);
        assertThat(CompilerThreads.isCompiler("C1 CompilerThre\n")).isTrue();
        assertThat(CompilerThreads.isCompiler("VM Thread\n")).isFalse();
    }

    @Test
    void thisJvmsCompilerThreadsAreFoundWithTheirCpu() {
        long pid = ProcessHandle.current().pid();
        if (!Files.isDirectory(Path.of("/proc", Long.toString(pid), "task"))) {
            assertThat(CompilerThreads.of(pid)).isEmpty(); // no /proc: none found, and no error
            return;
        }
        List<Long> threads = CompilerThreads.of(pid);
        // HotSpot with tiered compilation runs a C1 and a C2 compiler thread at least, and they have compiled this test.
        assertThat(threads).hasSizeGreaterThanOrEqualTo(2);
        assertThat(CompilerThreads.cpuNanos(pid, threads)).isPositive();
        assertThat(CompilerThreads.cpuNanos(pid, List.of(Long.MAX_VALUE))).isZero();
    }
}
