package io.tally.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.bench.aws.ArrivingShard;
import io.tally.bench.aws.CallTimes;
import io.tally.bench.aws.LatencyModel;
import io.tally.bench.model.ModelResults;
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

        assertThat(section).startsWith("## On AWS, modelled: one shard at AWS latencies, events on")
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

    /** With the CPU-confined model on the page, its targets replace these, and this section follows it as history. */
    @Test
    void withTheCpuConfinedModel_thisModelIsHistoryAndTheTargetsAreTheNewModels() {
        ModelResults.Point backlog = new ModelResults.Point("rates", 1024, "c1", 0.58, 0, 0, 1, 4000, 4000, 8, 500,
                true, new double[] {100, 200, 300, 400}, 10, 1, 0.9, 1.2, 1.5, 0, 0, 0, 100, 0, true, 0, 0);
        ModelResults model = new ModelResults("2026-11-30", List.of(), new double[] {60, 390},
                new double[][] {{118, 213, 341, 552}, {95, 214, 343, 552}}, 1000, "", 1024, 5, 240, 2000, null,
                List.of(backlog));
        Results results = new Results(new Results.Environment("2026-01-01T00:00:00Z", "cmd", 2, "jvm", "os", 1024,
                "DynamoDB Local", 20000, 42, 1000, 0), List.of(), null, null, null);

        String page = Report.markdown(results, null, sample(8, 900), model);

        String targets = page.substring(page.indexOf("## Targets"), page.indexOf("## On AWS"));
        assertThat(targets).contains("| Modelled on AWS, under the function's CPU: A shard keeps up with a saturated"
                + " partition (1,000 records/s) with events, 1.5x headroom: a backlog at 1,500 records/s or more, 1024"
                + " MB | 500 records/s (0.50x a partition); what bounds it, the profile and the design that would"
                + " pass it: [docs/shard-throughput.md](docs/shard-throughput.md) | **no** |")
                .contains("| Modelled on AWS, under the function's CPU: Every run exact | 1 of 1 | yes |")
                .doesNotContain("AWS-latency mode");
        int modelled = page.indexOf("## On AWS, modelled: the deployed function under its CPU");
        int history = page.indexOf("## On AWS, modelled with free CPU (history): one shard at AWS latencies");
        assertThat(modelled).isPositive().isLessThan(history);
        assertThat(page.substring(history)).contains("Kept as history").contains("| 1,250 records/s | yes |");
        assertThat(page.substring(modelled, history)).doesNotContain("### Targets in the model");
        // Without the model, the AWS-latency mode's section and targets are as they were.
        assertThat(Report.markdown(results, null, sample(8, 900))).contains("AWS-latency mode")
                .contains("## On AWS, modelled: one shard at AWS latencies").doesNotContain("(history)");
    }

    /** The figures on record, written before the p99.9 was modelled, still read (the page is rendered from them). */
    @Test
    void theRecordedFiguresStillRead() throws Exception {
        AwsLatencyResults recorded = new com.fasterxml.jackson.databind.ObjectMapper()
                .readValue(Path.of("results", "aws-latency.json").toFile(), AwsLatencyResults.class);
        LatencyModel.Operation updates = recorded.model().stream()
                .filter(operation -> operation.operation().equals("UpdateItem")).findFirst().orElseThrow();
        LatencyModel.Operation logNormal = new LatencyModel.Operation("DynamoDB", "UpdateItem", updates.p50Millis(),
                updates.p99Millis(), "");
        assertThat(updates.p999Millis()).isEqualTo(logNormal.p999Millis()).isGreaterThan(updates.p99Millis());
        assertThat(AwsLatencyReport.section(recorded, true)).contains("(history)");
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
