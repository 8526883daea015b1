package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The load mode end to end, short and with few connections: a real local runner over real HTTP. Its bookkeeping
 * must add up (every request counted once, every acknowledged write read back) and its checks must pass.
 */
class LoadRunIT {
    @Test
    void aShortRun_countsEveryRequest_andFindsEveryAcknowledgedWrite() {
        Results.Load load = new LoadRun(4, Duration.ofSeconds(3), 7).run();

        assertThat(load.connections()).isEqualTo(4);
        assertThat(load.requests()).isPositive();
        assertThat(load.requests()).isEqualTo(load.writesAcknowledged() + load.readsOk() + load.shed()
                + load.unexpected());
        assertThat(load.unexpectedSamples()).isEmpty();
        assertThat(load.writesAcknowledged()).isEqualTo(load.posts() + load.comments() + load.items());
        assertThat(load.posts()).isPositive();
        assertThat(load.missing()).isZero();
        assertThat(load.exactAfterDrain()).isTrue();
        assertThat(load.passed()).isTrue();
        assertThat(load.p50Ms()).isLessThanOrEqualTo(load.p99Ms());
        assertThat(load.p99Ms()).isLessThanOrEqualTo(load.maxMs());
        assertThat(load.peakHeapMb()).isPositive();
        assertThat(LoadReport.loadSection(load)).contains("## Load", "| 4 |");
    }
}
