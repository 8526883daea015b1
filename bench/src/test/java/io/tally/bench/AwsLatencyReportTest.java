package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.bench.aws.ArrivingShard;
import io.tally.bench.aws.CallTimes;
import io.tally.bench.aws.LatencyModel;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AwsLatencyReportTest {
    /** A run of {@code arrived} records, every one {@code freshness} ms fresh, {@code processed} of them done. */
    static AwsLatencyResults.Point point(String processor, AwsLatencyRun.Setting setting, double share, int arrived,
                                         int processed, double seconds, double freshness, boolean exact) {
        List<Double> freshnessMillis = new ArrayList<>(Collections.nCopies(arrived, freshness));
        ArrivingShard.Outcome outcome = new ArrivingShard.Outcome(
                share == 0 ? Double.POSITIVE_INFINITY : share * 1_000, arrived, processed, seconds, freshnessMillis,
                10, seconds * 0.9, processed == arrived ? 0.5 : Double.POSITIVE_INFINITY);
        CallTimes.Snapshot used = new CallTimes.Snapshot(
                Map.of("DynamoDB", seconds * 400, "EventBridge", seconds * 400, CallTimes.ANY, seconds * 800),
                Map.of("DynamoDB/UpdateItem", new CallTimes.OperationFigures("DynamoDB/UpdateItem", 100, 550, 300, 20,
                        40)));
        return AwsLatencyResults.Point.of(processor, setting, share, outcome, used, 1, exact, exact ? 0 : 3);
    }

    static AwsLatencyResults sample(double tallyBacklogSeconds, double tallyFreshnessAt80) {
        List<AwsLatencyResults.Point> points = List.of(
                point("tally", AwsLatencyRun.Setting.DEPLOYED, 0, 10_000, 10_000, tallyBacklogSeconds, 5_000, true),
                point("tally", AwsLatencyRun.Setting.DEPLOYED, 0.8, 6_400, 6_400, 8.1, tallyFreshnessAt80, true),
                point("naive", AwsLatencyRun.Setting.ONE_AT_A_TIME, 0, 500, 500, 20, 10_000, true),
                point("naive", AwsLatencyRun.Setting.ONE_AT_A_TIME, 0.8, 6_400, 250, 16, 9_000, true));
        List<AwsLatencyResults.Point> tuning = List.of(
                point("tally", AwsLatencyRun.Setting.DEPLOYED, 0, 5_000, 5_000, 4, 2_000, true),
                point("tally", AwsLatencyRun.TUNING.get(1), 0, 5_000, 5_000, 16, 8_000, false));
        return new AwsLatencyResults("2026-11-27", LatencyModel.aws().operations(), 1_000, 1_000, 8, 250, 1, points,
                tuning);
    }

    @Test
    void targetsJudgeTheBacklogsRateTheFreshnessAtEightyPercentAndEveryRunsOracle() {
        // 10,000 records in 8 s: 1,250 records/s; p99 900 ms at 800/s; the "before" tuning run is not exact.
        List<Report.Target> targets = AwsLatencyReport.targets(sample(8, 900));

        assertThat(targets).extracting(Report.Target::measured)
                .containsExactly("1,250 records/s", "900 ms", "3 of 4 exact");
        assertThat(targets).extracting(Report.Target::met).containsExactly(true, true, false);

        // 10,000 records in 12.5 s: 800 records/s; p99 1,200 ms.
        assertThat(AwsLatencyReport.targets(sample(12.5, 1_200))).extracting(Report.Target::met)
                .containsExactly(false, false, false);
    }

    @Test
    void sectionShowsTheModelWithSourcesTheRatesTheTuningTheSplitAndTheEmulatorsShare() {
        String section = AwsLatencyReport.section(sample(8, 900));

        assertThat(section).startsWith("## On AWS: one shard at AWS latencies, events on")
                .contains("| EventBridge | PutEvents | 20 | 60 |")
                .contains("Tally takes 50.0x the naive processor's records a second")
                .contains("![Freshness p50 and p99 against the arrival rate")
                // The naive processor did 250 of 6,400: not kept up, its freshness a lower bound.
                .contains("| naive | 80% | 800 | 250 of 6400 |").contains("| **no** | at least 9,000 | at least 9,000 |")
                .contains("| deployed | 16 | 16 | 1,250 | 1.00x |")
                .contains("| events one call at a time (before) | 8 | 1 | 313 | 0.25x |")
                .contains("| tally | backlog | 7.2 | 44% | 44% | 11% | 100 | 0 |")
                .contains("| tally | backlog | 100 | 20% | 0.04 s | 7% |");
        for (LatencyModel.Operation operation : LatencyModel.aws().operations()) {
            assertThat(section).contains(operation.source());
        }
    }

    @Test
    void thePlotIsAPngOfTheDocumentedSize(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("plots/aws.png");
        FreshnessPlot.write(sample(8, 900), png);

        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(FreshnessPlot.WIDTH);
        assertThat(image.getHeight()).isEqualTo(FreshnessPlot.HEIGHT);
        assertThat(Files.size(png)).isGreaterThan(5_000);
    }
}
