package org.blockfilter.privacylab.internal;

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
        chart = new XYChartBuilder().width(900).height(560).title(title).xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideS);
        s.setLegendLayout(Styler.LegendLayout.Horizontal);
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

    /** A measured series: markers with a solid line. */
    public Plot measured(String name, List<? extends Number> x, List<? extends Number> y) {
        XYSeries s = chart.addSeries(unique(name), x, y);
        s.setMarker(SeriesMarkers.CIRCLE);
        return this;
    }

    /** A model series: dashed line, no markers. */
    public Plot model(String name, List<? extends Number> x, List<? extends Number> y) {
        XYSeries s = chart.addSeries(unique(name), x, y);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
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
