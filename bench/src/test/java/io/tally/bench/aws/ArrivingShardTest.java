package io.tally.bench.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ArrivingShardTest {
    private static final List<Integer> RECORDS = IntStream.range(0, 2_500).boxed().toList();

    @Test
    void aBacklogIsHandedOverInFullBatchesInOrderOneInvocationAtATime() {
        List<List<Integer>> batches = new ArrayList<>();
        int[] polls = new int[1];
        ArrivingShard.Outcome outcome = ArrivingShard.run(RECORDS, Double.POSITIVE_INFINITY, 1_000,
                Duration.ZERO, Duration.ofSeconds(30), batch -> batches.add(List.copyOf(batch)), () -> polls[0]++);

        assertThat(batches).extracting(List::size).containsExactly(1_000, 1_000, 500);
        assertThat(batches.stream().flatMap(List::stream).toList()).isEqualTo(RECORDS);
        assertThat(polls[0]).isEqualTo(3);
        assertThat(outcome.processed()).isEqualTo(2_500);
        assertThat(outcome.invocations()).isEqualTo(3);
        assertThat(outcome.keptUp()).isTrue();
        assertThat(outcome.freshnessMillis()).hasSize(2_500).allSatisfy(millis -> assertThat(millis).isNotNegative());
    }

    @Test
    void atASteadyRateOnlyRecordsThatHaveArrivedAreHandedOverAndEachOnce() {
        List<Integer> seen = new ArrayList<>();
        long start = System.nanoTime();
        List<Long> lateness = new ArrayList<>();
        // 200 records a second for half a second: 100 records, the last arriving at 495 ms.
        ArrivingShard.Outcome outcome = ArrivingShard.run(RECORDS, 200, 1_000, Duration.ofMillis(500),
                Duration.ofSeconds(5), batch -> {
                    long now = System.nanoTime() - start;
                    for (int record : batch) {
                        // A record is handed over no earlier than it arrives (record i at i * 5 ms).
                        lateness.add(now - record * 5_000_000L);
                        seen.add(record);
                    }
                }, () -> { });

        assertThat(seen).isEqualTo(RECORDS.subList(0, 100));
        assertThat(lateness).allSatisfy(nanos -> assertThat(nanos).isNotNegative());
        assertThat(outcome.arrived()).isEqualTo(100);
        assertThat(outcome.processed()).isEqualTo(100);
        // Never more invocations than records (how many depends on the machine's pace, so no tighter bound here).
        assertThat(outcome.invocations()).isBetween(1L, 100L);
    }

    @Test
    void withTimeRunningSlowerRecordsArriveLessOftenAndTheOutcomeIsInTheModelsTime() {
        List<Long> lateness = new ArrayList<>();
        long start = System.nanoTime();
        // 200 records a second in the model's time for half a second, time running 3 times slower: record i arrives
        // at i * 15 ms, and each invocation takes 30 ms of real time (10 ms of the model's).
        ArrivingShard.Outcome outcome = ArrivingShard.run(RECORDS, 200, 1_000, Duration.ofMillis(500),
                Duration.ofSeconds(5), batch -> {
                    long now = System.nanoTime() - start;
                    for (int record : batch) {
                        lateness.add(now - record * 15_000_000L);
                    }
                    AwsLatencyInterceptor.pause(30_000_000L);
                }, () -> { }, 3);

        assertThat(outcome.arrived()).isEqualTo(100);
        assertThat(outcome.processed()).isEqualTo(100);
        assertThat(lateness).hasSize(100).allSatisfy(nanos -> assertThat(nanos).isNotNegative());
        // The last record arrives at 495 ms of the model's time (1,485 ms real) and its invocation lasts 10 ms more.
        assertThat(outcome.seconds()).isGreaterThanOrEqualTo(0.505);
        assertThat(outcome.busySeconds()).isGreaterThanOrEqualTo(0.01 * outcome.invocations());
        assertThat(outcome.freshnessMillis()).allSatisfy(millis -> assertThat(millis).isGreaterThanOrEqualTo(10));
    }

    @Test
    void aProcessorThatCannotKeepUpIsReportedSoWithLowerBoundsForWhatItNeverProcessed() {
        ArrivingShard.Outcome outcome = ArrivingShard.run(RECORDS, 1_000, 100, Duration.ofMillis(200),
                Duration.ofMillis(100), batch -> AwsLatencyInterceptor.pause(150_000_000L), () -> { });

        assertThat(outcome.arrived()).isEqualTo(200);
        assertThat(outcome.processed()).isLessThan(200);
        assertThat(outcome.keptUp()).isFalse();
        assertThat(outcome.freshnessMillis()).hasSize(200);
    }

    @Test
    void countsArrivalsFromTheFirstRecordOn() {
        assertThat(ArrivingShard.arrivedBy(-1, 100, 50)).isZero();
        assertThat(ArrivingShard.arrivedBy(0, 100, 50)).isEqualTo(1);
        assertThat(ArrivingShard.arrivedBy(9_999_999, 100, 50)).isEqualTo(1);
        assertThat(ArrivingShard.arrivedBy(10_000_000, 100, 50)).isEqualTo(2);
        assertThat(ArrivingShard.arrivedBy(60_000_000_000L, 100, 50)).isEqualTo(50);
        assertThatThrownBy(() -> ArrivingShard.run(RECORDS, 10_000, 10, Duration.ofSeconds(1), Duration.ZERO,
                batch -> { }, () -> { })).isInstanceOf(IllegalArgumentException.class);
    }
}
