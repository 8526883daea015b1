package io.tally.bench;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Draws the AWS-latency mode's freshness against the arrival rate, p50 and p99 of both processors, as a PNG (with
 * JFreeChart, headless). Freshness is on a logarithmic axis: the naive processor's is seconds where Tally's is
 * milliseconds.
 */
final class FreshnessPlot {
    static final int WIDTH = 900;
    static final int HEIGHT = 560;

    private FreshnessPlot() {
    }

    static void write(AwsLatencyResults aws, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        XYSeriesCollection data = new XYSeriesCollection();
        for (String processor : List.of(AwsLatencyRun.TALLY, AwsLatencyRun.NAIVE)) {
            XYSeries p50 = new XYSeries(processor + " p50");
            XYSeries p99 = new XYSeries(processor + " p99");
            for (AwsLatencyResults.Point point : aws.points()) {
                if (point.processor().equals(processor) && !point.backlog()) {
                    p50.add(point.rate(), Math.max(1, point.freshnessP50Millis()));
                    p99.add(point.rate(), Math.max(1, point.freshnessP99Millis()));
                }
            }
            data.addSeries(p50);
            data.addSeries(p99);
        }
        NumberAxis rate = new NumberAxis("records/s arriving on the shard (" + fmtLimit(aws) + ")");
        LogAxis freshness = new LogAxis("freshness (ms, log scale); naive: lower bounds once it falls behind");
        freshness.setSmallestValue(1);
        // A tick at each power of ten, labelled as a plain number of milliseconds (10, 100, 1,000), not 10^2.3.
        freshness.setTickUnit(new NumberTickUnit(1));
        freshness.setNumberFormatOverride(new DecimalFormat("#,##0"));
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        Color tally = new Color(0x1f, 0x77, 0xb4);
        Color naive = new Color(0xd6, 0x27, 0x28);
        renderer.setSeriesPaint(0, tally);
        renderer.setSeriesPaint(1, tally);
        renderer.setSeriesPaint(2, naive);
        renderer.setSeriesPaint(3, naive);
        BasicStroke dashed = new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {6f, 4f}, 0f);
        for (int series = 0; series < 4; series++) {
            renderer.setSeriesStroke(series, series % 2 == 0 ? new BasicStroke(2f) : dashed);
        }
        XYPlot plot = new XYPlot(data, rate, freshness, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        ValueMarker target = new ValueMarker(AwsLatencyReport.MAX_P99_MS, Color.GRAY, new BasicStroke(1f));
        target.setLabel("1 s: Tally's p99 target at 80% of the limit");
        // Inside the plot, above the line at its right end, where no point is drawn over it.
        target.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        target.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        plot.addRangeMarker(target);
        ValueMarker limit = new ValueMarker(aws.partitionWritesPerSec(), Color.GRAY, new BasicStroke(1f));
        limit.setLabel("partition write limit");
        plot.addDomainMarker(limit);
        JFreeChart chart = new JFreeChart("Freshness against arrival rate, one shard at AWS latencies, events on",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        Files.createDirectories(png.toAbsolutePath().getParent());
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }

    private static String fmtLimit(AwsLatencyResults aws) {
        return "a partition takes " + Report.fmt(aws.partitionWritesPerSec(), 0) + " writes/s";
    }
}
