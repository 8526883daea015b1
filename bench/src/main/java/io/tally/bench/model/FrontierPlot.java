package io.tally.bench.model;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.labels.XYItemLabelGenerator;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The cost frontier as a PNG (JFreeChart, headless): write units per record against freshness p99, one line per
 * arrival rate, a point per batching window (labelled with it), the median of each point's runs.
 */
public final class FrontierPlot {
    static final int WIDTH = 900;
    static final int HEIGHT = 560;

    private FrontierPlot() {
    }

    public static void write(ModelResults results, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<ModelResults.Point> points = results.points().stream()
                .filter(p -> p.group().equals("frontier")).toList();
        XYSeriesCollection data = new XYSeriesCollection();
        List<List<Double>> windows = new ArrayList<>();
        for (double share : ModelPlans.FRONTIER_SHARES) {
            XYSeries series = new XYSeries(ModelReport.fmt(share * 100, 0) + "% of a partition", false);
            List<Double> labels = new ArrayList<>();
            points.stream().filter(p -> p.share() == share).map(ModelResults.Point::window).distinct()
                    .sorted(Comparator.naturalOrder()).forEach(window -> {
                        List<ModelResults.Point> runs = points.stream().filter(p -> p.share() == share
                                && p.window() == window).toList();
                        double p99 = ModelResults.medianAndSpread(runs.stream().map(ModelResults.Point::p99)
                                .toList())[0];
                        double units = ModelResults.medianAndSpread(runs.stream()
                                .map(ModelResults.Point::writeUnitsPerRecord).toList())[0];
                        series.add(Math.max(1, p99), units);
                        labels.add(window);
                    });
            data.addSeries(series);
            windows.add(labels);
        }
        LogAxis freshness = new LogAxis("freshness p99 (ms, log scale), stream delay included");
        freshness.setSmallestValue(10);
        freshness.setTickUnit(new NumberTickUnit(1));
        freshness.setNumberFormatOverride(new DecimalFormat("#,##0"));
        // From the power of ten below the freshest point to the one above the stalest: a labelled tick at each end.
        double least = Double.MAX_VALUE;
        double most = 10;
        for (int series = 0; series < data.getSeriesCount(); series++) {
            for (int item = 0; item < data.getItemCount(series); item++) {
                least = Math.min(least, data.getXValue(series, item));
                most = Math.max(most, data.getXValue(series, item));
            }
        }
        if (least <= most) {
            freshness.setRange(Math.pow(10, Math.floor(Math.log10(least))), Math.pow(10, Math.ceil(Math.log10(most))));
        }
        NumberAxis units = new NumberAxis("write units per record (derived and bookkeeping)");
        units.setAutoRangeIncludesZero(true);
        XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
        XYItemLabelGenerator label = (dataset, series, item) ->
                ModelReport.fmt(windows.get(series).get(item), 1) + " s";
        renderer.setDefaultItemLabelGenerator(label);
        renderer.setDefaultItemLabelsVisible(true);
        Color[] colors = {new Color(0x2c, 0xa0, 0x2c), new Color(0x1f, 0x77, 0xb4), new Color(0xd6, 0x27, 0x28)};
        for (int series = 0; series < colors.length; series++) {
            renderer.setSeriesPaint(series, colors[series]);
            renderer.setSeriesStroke(series, new BasicStroke(2f));
        }
        XYPlot plot = new XYPlot(data, freshness, units, renderer);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart("Cost against freshness by batching window, the deployed function modelled",
                JFreeChart.DEFAULT_TITLE_FONT, plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        // Room on the right for the last tick's label.
        chart.setPadding(new org.jfree.chart.ui.RectangleInsets(4, 4, 4, 28));
        Files.createDirectories(png.toAbsolutePath().getParent());
        ChartUtils.saveChartAsPNG(png.toFile(), chart, WIDTH, HEIGHT);
    }
}
