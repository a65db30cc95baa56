package org.blockfilter.privacylab.internal.report;

import java.awt.BasicStroke;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/** An XY line plot with labelled axes and a legend, written as PNG (XChart, headless). Not thread-safe. */
public final class Plot {
    private final XYChart chart;
    private final List<String> names = new ArrayList<>();

    public Plot(String title, String xLabel, String yLabel) {
        this(title, xLabel, yLabel, 600);
    }

    /** A plot {@code height} pixels tall (taller for a legend below the plot). */
    public Plot(String title, String xLabel, String yLabel, int height) {
        chart = new XYChartBuilder()
                .width(1100)
                .height(height)
                .title(title)
                .xAxisTitle(xLabel)
                .yAxisTitle(yLabel)
                .build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setLegendLayout(Styler.LegendLayout.Vertical);
        s.setChartBackgroundColor(java.awt.Color.WHITE);
        s.setPlotBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setMarkerSize(6);
    }

    public Plot logX() {
        chart.getStyler().setXAxisLogarithmic(true);
        return this;
    }

    public Plot logY() {
        chart.getStyler().setYAxisLogarithmic(true);
        return this;
    }

    public Plot yRange(double min, double max) {
        chart.getStyler().setYAxisMin(min);
        chart.getStyler().setYAxisMax(max);
        return this;
    }

    private static final java.awt.Color[] PALETTE = {
        new java.awt.Color(31, 119, 180), new java.awt.Color(255, 127, 14), new java.awt.Color(44, 160, 44),
        new java.awt.Color(214, 39, 40), new java.awt.Color(148, 103, 189), new java.awt.Color(140, 86, 75),
        new java.awt.Color(227, 119, 194), new java.awt.Color(127, 127, 127)
    };

    private java.awt.Color[] palette = PALETTE;

    /** Ten colours instead of eight, for plots with more than eight groups (the first eight are unchanged). */
    public Plot widePalette() {
        palette = java.util.Arrays.copyOf(PALETTE, PALETTE.length + 2);
        palette[PALETTE.length] = new java.awt.Color(188, 189, 34);
        palette[PALETTE.length + 1] = new java.awt.Color(23, 190, 207);
        return this;
    }

    /** A measured series: markers with a solid line, in the colour of {@code group}. */
    public Plot measured(String name, List<? extends Number> x, List<? extends Number> y, int group) {
        if (x.isEmpty()) {
            return this; // XChart rejects an empty series; nothing to draw
        }
        XYSeries s = chart.addSeries(unique(name), x, y);
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setMarkerColor(palette[group % palette.length]);
        s.setLineColor(palette[group % palette.length]);
        return this;
    }

    /** A model series: dashed line, no markers, in the colour of {@code group} (pair it with its measured series). */
    public Plot model(String name, List<? extends Number> x, List<? extends Number> y, int group) {
        if (x.isEmpty()) {
            return this; // XChart rejects an empty series; nothing to draw
        }
        XYSeries s = chart.addSeries(unique(name), x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(palette[group % palette.length]);
        s.setLineStyle(
                new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        return this;
    }

    /** A model series in black (dashed), for a reference line that belongs to no group (e.g. a lower bound). */
    public Plot modelBlack(String name, List<? extends Number> x, List<? extends Number> y) {
        model(name, x, y, 0);
        XYSeries s = chart.getSeriesMap().get(names.get(names.size() - 1));
        s.setLineColor(java.awt.Color.BLACK);
        return this;
    }

    /**
     * A measured series with its 95% interval drawn as a vertical bar at each point (bars are not in the legend).
     * {@code dx} shifts the series sideways (multiplied on a log x axis) so series at the same x stay visible.
     */
    public Plot measuredWithCi(
            String name,
            List<? extends Number> x,
            List<Double> y,
            List<Double> lo,
            List<Double> hi,
            int group,
            double dx) {
        return measuredWithCi(name, x, y, lo, hi, group, dx, true);
    }

    /** As above; {@code connect = false} draws markers only (for categories on the x axis). */
    public Plot measuredWithCi(
            String name,
            List<? extends Number> x,
            List<Double> y,
            List<Double> lo,
            List<Double> hi,
            int group,
            double dx,
            boolean connect) {
        List<Double> xs = new ArrayList<>();
        for (Number v : x) {
            xs.add(chart.getStyler().isXAxisLogarithmic() ? v.doubleValue() * dx : v.doubleValue() + dx);
        }
        measured(name, xs, y, group);
        if (!connect) {
            chart.getSeriesMap()
                    .get(names.get(names.size() - 1))
                    .setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
        }
        for (int i = 0; i < xs.size(); i++) {
            XYSeries bar = chart.addSeries(
                    unique(name + " ci" + i), List.of(xs.get(i), xs.get(i)), List.of(lo.get(i), hi.get(i)));
            bar.setMarker(SeriesMarkers.NONE);
            bar.setLineColor(palette[group % palette.length]);
            bar.setLineStyle(new BasicStroke(1.5f));
            bar.setShowInLegend(false);
        }
        return this;
    }

    /** Horizontal 95% intervals [lo, hi] at heights {@code y}, in the colour of {@code group} (not in the legend). */
    public Plot xIntervals(List<Double> y, List<Double> lo, List<Double> hi, int group) {
        for (int i = 0; i < y.size(); i++) {
            XYSeries bar =
                    chart.addSeries(unique("xci" + i), List.of(lo.get(i), hi.get(i)), List.of(y.get(i), y.get(i)));
            bar.setMarker(SeriesMarkers.NONE);
            bar.setLineColor(palette[group % palette.length]);
            bar.setLineStyle(new BasicStroke(1.5f));
            bar.setShowInLegend(false);
        }
        return this;
    }

    /** Markers only, no line, in the colour of {@code group} (open diamonds). */
    public Plot scatter(String name, List<? extends Number> x, List<? extends Number> y, int group) {
        if (x.isEmpty()) {
            return this; // XChart rejects an empty series; nothing to draw
        }
        XYSeries s = chart.addSeries(unique(name), x, y);
        s.setMarker(SeriesMarkers.DIAMOND);
        s.setMarkerColor(palette[group % palette.length]);
        s.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
        return this;
    }

    /** Points that are exactly zero on a log axis, drawn at {@code floor} as downward triangles and named so. */
    public Plot zeros(String name, List<? extends Number> x, double floor, int group) {
        if (x.isEmpty()) {
            return this;
        }
        List<Double> y = new ArrayList<>();
        x.forEach(v -> y.add(floor));
        XYSeries s = chart.addSeries(unique(name), x, y);
        s.setMarker(SeriesMarkers.TRIANGLE_DOWN);
        s.setMarkerColor(palette[group % palette.length]);
        s.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
        return this;
    }

    /** Points drawn as downward triangles (e.g. zero counts placed at their upper bound), named so in the legend. */
    public Plot scatterDown(String name, List<? extends Number> x, List<? extends Number> y, int group) {
        if (x.isEmpty()) {
            return this;
        }
        XYSeries s = chart.addSeries(unique(name), x, y);
        s.setMarker(SeriesMarkers.TRIANGLE_DOWN);
        s.setMarkerColor(palette[group % palette.length]);
        s.setXYSeriesRenderStyle(org.knowm.xchart.XYSeries.XYSeriesRenderStyle.Scatter);
        return this;
    }

    /** An invisible, unlisted series at {@code xs} (height {@code y}): gives a category axis its ticks and margins. */
    public Plot invisible(List<Double> xs, double y) {
        List<Double> ys = new ArrayList<>();
        xs.forEach(v -> ys.add(y));
        XYSeries s = chart.addSeries(unique("ticks"), xs, ys);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineColor(new java.awt.Color(0, 0, 0, 0));
        s.setShowInLegend(false);
        return this;
    }

    /**
     * A categorical x axis: {@code labels.get(i)} names the category at x = i (x runs from -0.5 to the last + 0.5).
     * The axis shows no numbers; each name is written in the plot at height {@code labelY} (data units) above its
     * category.
     */
    public Plot categories(List<String> labels, double labelY) {
        xRange(-0.5, labels.size() - 0.5);
        chart.getStyler().setXAxisTicksVisible(false);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        for (int i = 0; i < labels.size(); i++) {
            chart.addAnnotation(new org.knowm.xchart.AnnotationText(labels.get(i), i, labelY, false));
        }
        return this;
    }

    /** Text centred at (x, y) in data units, e.g. the name of a point. */
    public Plot label(String text, double x, double y) {
        chart.addAnnotation(new org.knowm.xchart.AnnotationText(text, x, y, false));
        return this;
    }

    /** Names the x ticks (e.g. categories placed at 0, 1, 2 ...). */
    public Plot xTicks(java.util.function.Function<Double, String> label) {
        chart.getStyler().setxAxisTickLabelsFormattingFunction(label);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        return this;
    }

    /** Puts the legend below the plot area (for plots with many series). */
    public Plot legendBelow() {
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Vertical);
        return this;
    }

    public Plot xRange(double min, double max) {
        chart.getStyler().setXAxisMin(min);
        chart.getStyler().setXAxisMax(max);
        return this;
    }

    private String unique(String name) {
        String n = name;
        int i = 2;
        while (names.contains(n)) {
            n = name + " (" + i++ + ")";
        }
        names.add(n);
        return n;
    }

    public void writePng(Path file) {
        try {
            String base = file.toString().replaceFirst("\\.png$", "");
            BitmapEncoder.saveBitmap(chart, base, BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
