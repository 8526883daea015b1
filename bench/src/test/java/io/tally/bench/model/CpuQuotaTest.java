package io.tally.bench.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class CpuQuotaTest {
    @Test
    void aQuotaIsTheShareOfItsPeriodOrARefusalThatSaysWhatItNeeds() throws Exception {
        String name = "tally-test-" + ProcessHandle.current().pid();
        try (CpuQuota quota = CpuQuota.create(name, 0.25, 100_000)) {
            // Writable here: the controller holds a quarter of each 100 ms period.
            Path v1 = CpuQuota.V1.resolve(name);
            if (Files.isDirectory(v1)) {
                assertThat(Files.readString(v1.resolve("cpu.cfs_quota_us")).trim()).isEqualTo("25000");
                assertThat(Files.readString(v1.resolve("cpu.cfs_period_us")).trim()).isEqualTo("100000");
            } else {
                assertThat(Files.readString(CpuQuota.V2.resolve(name).resolve("cpu.max")).trim())
                        .isEqualTo("25000 100000");
            }
        } catch (IllegalStateException e) {
            // Not writable (not root, no delegated cgroup): the refusal names the controller and the way out.
            assertThat(e).hasMessageContaining("CPU controller").hasMessageContaining("root");
        }
    }

    @Test
    void aGroupIsAbandonedWhenItsBenchProcessHasEnded() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        assertThat(CpuQuota.abandoned(CpuQuota.groupName(ended.pid(), 3))).isTrue();
        assertThat(CpuQuota.abandoned(CpuQuota.groupName(ProcessHandle.current().pid(), 3))).isFalse();
        assertThat(CpuQuota.abandoned("tallytest")).isFalse();
        assertThat(CpuQuota.abandoned(CpuQuota.PREFIX + "x-1")).isFalse();
    }

    @Test
    void refusesAShareOrPeriodThatIsNoQuota() {
        assertThatThrownBy(() -> CpuQuota.create("x", 0, 100_000)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CpuQuota.create("x", 0.5, 10)).isInstanceOf(IllegalArgumentException.class);
    }
}
