package io.tally.bench.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.tally.bench.aws.LatencyModel;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelReportTest {
    private static ModelResults.Point point(String group, int memory, String jit, double window, double share,
                                            int repeat, double recordsPerSec, double p99, boolean exact) {
        return new ModelResults.Point(group, memory, jit, memory / 1769.0, window, share, repeat, 100, 100, 1,
                recordsPerSec, true, new double[] {p99 / 2, p99, p99 * 1.5, p99 * 2}, 10, 1, 0.9, 1.2, 1.5, 0, 0,
                0, 100, 0, exact, 0, 0);
    }

    @Test
    void theSectionGivesEachRatesMedianAndSpreadTheAssumptionsAndTheSideBySideRuns() {
        List<ModelResults.Point> points = new ArrayList<>();
        points.add(point("rates", 1024, ModelPlans.C1, 0, 0.8, 1, 700, 900, true));
        points.add(point("rates", 1024, ModelPlans.C1, 0, 0.8, 2, 800, 1200, true));
        points.add(point("rates", 1024, ModelPlans.C1, 0, 0.8, 3, 750, 1000, false));
        points.add(point("rates", 1024, ModelPlans.C1, 0, 0.5, 1, 480, 700, true));
        points.add(point("frontier", 1024, ModelPlans.C1, 1, 0.5, 1, 500, 2000, true));
        points.add(point("tuning", 1769, ModelPlans.C1, 0, 0, 1, 900, 5000, true));
        points.add(point("tuning", 1769, ModelPlans.TIERED, 0, 0, 1, 600, 7000, true));
        ModelResults results = new ModelResults("2026-11-30", LatencyModel.awsHeavyTailed().operations(),
                new double[] {60, 390}, new double[][] {{118, 213, 341, 552}, {95, 214, 343, 552}}, 1000,
                "-XX:TieredStopAtLevel=1", 1024, 5, 240, 2000,
                new ModelResults.Floor(17_000, 1000, 0.8), points);
        String section = ModelReport.section(results);
        // The median of three repeats and their spread; one inexact repeat marks the row.
        assertThat(section).contains("| 80% (800/s) | 3 | 3 of 3 | 750 [700, 800] | 500 [450, 600] | 1,000 [900,"
                + " 1,200] |");
        assertThat(section).contains("**no**");
        assertThat(section).contains(StreamDelay.SOURCE).contains("1,769 MB").contains("PutEvents 2,400");
        assertThat(section).contains("| 1769 | 1.00 | C1 only (the template's) | 1 | 900 |")
                .contains("| 1769 | 1.00 | full tiering | 1 | 600 |");
        assertThat(section).contains("| 1.0 | 50% | 1 | 0.90 |");
        // No call of these runs took longer than its modelled latency.
        assertThat(section).contains("| Calls late |").contains(" | 0% | ");
        // The frontier is its own runs, side by side in one process: the rates' runs are not among them.
        assertThat(section).doesNotContain("| 0.0 | 50% |");
        assertThat(section).contains("| Freshness p99 at most 1 s at 80% of a partition, stream delay included |"
                + " 1,000 [900, 1,200] ms | yes |").contains("| Every run exact | 6 of 7 | **no** |");
        // 0.90 write units a record at 50% against a floor of 0.80: 1.13x, within 1.3x.
        assertThat(section).contains("| With the default batching window, write units per record at most 1.3x the"
                + " floor at 50% of a partition (the floor: 0.80 a record, the same records in full batches of 1,000)"
                + " | 0.90 (1.13x) | yes |");
        // On the page, the targets go to the Targets table.
        assertThat(ModelReport.section(results, false)).doesNotContain("### Targets in the model")
                .contains("Targets table");
        assertThat(ModelReport.targetRows(results)).extracting(ModelReport.TargetRow::met)
                .containsExactly(true, true, false);
        // A 50% run that fell behind read full batches: the row says so.
        List<ModelResults.Point> behind = new ArrayList<>(points);
        ModelResults.Point half = points.get(3);
        behind.set(3, new ModelResults.Point(half.group(), half.memory(), half.jit(), half.cores(), half.window(),
                half.share(), half.repeat(), half.arrived(), half.processed(), half.seconds(), half.recordsPerSec(),
                false, half.freshness(), half.invocations(), half.busySeconds(), half.writeUnitsPerRecord(),
                half.cpuMillisPerRecord(), half.echoPerRecord(), half.throttledWrites(), half.throttledPutEvents(),
                half.lateCalls(), half.calls(), half.failedInvocations(), half.exact(), half.differences(),
                half.undoneCascades()));
        ModelResults fellBehind = new ModelResults(results.date(), results.model(), results.streamDelay(),
                results.streamDelayFit(), results.batchSize(), results.javaToolOptions(), results.defaultMemory(),
                results.timeScale(), results.putEventsPerSecond(), results.warmUpRecords(), results.floor(), behind);
        assertThat(ModelReport.section(fellBehind)).contains("| 0.90 (1.13x; kept up in 0 of 1 runs, the others read"
                + " full batches as a backlog does) | yes |");
    }

    @Test
    void theFrontierPlotIsAPictureOfItsSize(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        List<ModelResults.Point> points = List.of(point("rates", 1024, ModelPlans.C1, 0, 0.5, 1, 500, 400, true),
                point("frontier", 1024, ModelPlans.C1, 1, 0.5, 1, 500, 1400, true));
        ModelResults results = new ModelResults("2026-11-30", List.of(), new double[] {60, 390},
                new double[][] {{118, 213, 341, 552}, {95, 214, 343, 552}}, 1000, "", 1024, 5, 240, 2000, null, points);
        java.nio.file.Path png = dir.resolve("frontier.png");
        FrontierPlot.write(results, png);
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(FrontierPlot.WIDTH);
        assertThat(image.getHeight()).isEqualTo(FrontierPlot.HEIGHT);
    }

    @Test
    void aMissedBacklogTargetLinksWhatBoundsTheShard() {
        List<ModelResults.Point> slow = List.of(point("rates", 1024, ModelPlans.C1, 0, 0, 1, 900, 3000, true));
        List<ModelResults.Point> fast = List.of(point("rates", 1024, ModelPlans.C1, 0, 0, 1, 1600, 3000, true));
        ModelResults missed = new ModelResults("2026-12-01", List.of(), new double[] {60, 390},
                new double[][] {{118, 213, 341, 552}, {95, 214, 343, 552}}, 1000, "", 1024, 3, 240, 2000, null, slow);
        ModelResults met = new ModelResults("2026-12-01", List.of(), new double[] {60, 390},
                new double[][] {{118, 213, 341, 552}, {95, 214, 343, 552}}, 1000, "", 1024, 3, 240, 2000, null, fast);
        assertThat(ModelReport.targetRows(missed).get(0).met()).isFalse();
        assertThat(ModelReport.targetRows(missed).get(0).measured()).startsWith("900 records/s (0.90x a partition)")
                .contains("(docs/shard-throughput.md)");
        assertThat(ModelReport.targetRows(met).get(0).met()).isTrue();
        assertThat(ModelReport.targetRows(met).get(0).measured()).doesNotContain("shard-throughput");
    }

    @Test
    void medianAndSpreadOfAnEvenNumberOfRunsIsTheMiddlePairsMean() {
        assertThat(ModelResults.medianAndSpread(List.of(4.0, 1.0, 3.0, 2.0))).containsExactly(2.5, 1.0, 4.0);
        assertThat(ModelResults.percentile(List.of(5.0, 1.0, 3.0), 100)).isEqualTo(5.0);
    }

    /** The model runs the stream processor with its own JIT flags from the template, and the tuning with both. */
    @Test
    void theRatesRunTheStreamProcessorsOwnJitFlags() {
        String options = ModelPlans.javaToolOptions(io.tally.core.template.DeploymentTemplate.bundled());
        assertThat(options).isEqualTo("-XX:+TieredCompilation -XX:TieredStopAtLevel=4");
        assertThat(ModelPlans.jit(options)).isEqualTo(ModelPlans.TIERED);
        assertThat(ModelPlans.jit("-XX:+TieredCompilation -XX:TieredStopAtLevel=1")).isEqualTo(ModelPlans.C1);
        List<ModelPlans.Plan> plans = ModelPlans.plans(List.of(0.0, 0.5), 1, List.of(1.0), List.of(1024), 1);
        assertThat(plans).filteredOn(plan -> !plan.group().equals("tuning")).extracting(ModelPlans.Plan::jit)
                .containsOnly(ModelPlans.TIERED);
        assertThat(plans).filteredOn(plan -> plan.group().equals("tuning")).extracting(ModelPlans.Plan::jit)
                .containsExactly(ModelPlans.C1, ModelPlans.TIERED);
    }
}
