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
        points.add(point("rates", 1024, ModelRun.C1, 0, 0.8, 1, 700, 900, true));
        points.add(point("rates", 1024, ModelRun.C1, 0, 0.8, 2, 800, 1200, true));
        points.add(point("rates", 1024, ModelRun.C1, 0, 0.8, 3, 750, 1000, false));
        points.add(point("frontier", 1024, ModelRun.C1, 1, 0.5, 1, 500, 2000, true));
        points.add(point("tuning", 1769, ModelRun.C1, 0, 0, 1, 900, 5000, true));
        points.add(point("tuning", 1769, ModelRun.TIERED, 0, 0, 1, 600, 7000, true));
        ModelResults results = new ModelResults("2026-11-30", LatencyModel.awsHeavyTailed().operations(),
                new double[] {60, 390}, new double[][] {{118, 213, 341, 552}, {95, 214, 343, 552}}, 1000,
                "-XX:TieredStopAtLevel=1", 1024, 5, 240, points);
        String section = ModelReport.section(results);
        // The median of three repeats and their spread; one inexact repeat marks the row.
        assertThat(section).contains("| 80% (800/s) | 3 | 3 of 3 | 750 [700, 800] | 500 [450, 600] | 1,000 [900,"
                + " 1,200] |");
        assertThat(section).contains("**no**");
        assertThat(section).contains(StreamDelay.SOURCE).contains("1,769 MB").contains("PutEvents 2,400");
        assertThat(section).contains("| 1769 | 1.00 | C1 only (the template's) | 1 | 900 |")
                .contains("| 1769 | 1.00 | full tiering | 1 | 600 |");
        assertThat(section).contains("| 1.0 | 50% | 1 | 0.90 |");
        assertThat(section).contains("| freshness p99 at most 1 s at 80% of a partition, stream delay included |"
                + " 1,000 [900, 1,200] ms | yes |").contains("| every run exact | 5 of 6 | **no** |");
    }

    @Test
    void theFrontierPlotIsAPictureOfItsSize(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        List<ModelResults.Point> points = List.of(point("rates", 1024, ModelRun.C1, 0, 0.5, 1, 500, 400, true),
                point("frontier", 1024, ModelRun.C1, 1, 0.5, 1, 500, 1400, true));
        ModelResults results = new ModelResults("2026-11-30", List.of(), new double[] {60, 390},
                new double[][] {{118, 213, 341, 552}, {95, 214, 343, 552}}, 1000, "", 1024, 5, 240, points);
        java.nio.file.Path png = dir.resolve("frontier.png");
        FrontierPlot.write(results, png);
        java.awt.image.BufferedImage image = javax.imageio.ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(FrontierPlot.WIDTH);
        assertThat(image.getHeight()).isEqualTo(FrontierPlot.HEIGHT);
    }

    @Test
    void medianAndSpreadOfAnEvenNumberOfRunsIsTheMiddlePairsMean() {
        assertThat(ModelResults.medianAndSpread(List.of(4.0, 1.0, 3.0, 2.0))).containsExactly(2.5, 1.0, 4.0);
        assertThat(ModelResults.percentile(List.of(5.0, 1.0, 3.0), 100)).isEqualTo(5.0);
    }
}
