package org.rccj.results;

import static org.rccj.results.Figures.MAX_BARS;
import static org.rccj.results.Figures.MAX_SERIES;
import static org.rccj.results.Figures.finite;

import java.awt.Color;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.rccj.results.Figures.Figure;

/**
 * How a figure is laid out, for every figure family: one chart, or a {@link Grid} of panels (one per distinct
 * panel name) under one title and legend once a chart would hold more than {@value Figures#MAX_SERIES} series or
 * {@value Figures#MAX_BARS} bars; bar panels share their y range.
 */
final class Panels {
    private Panels() {}

    /** Stage bars (stacked or grouped) in one chart, or a panel per distinct {@code panelOf} value. */
    static Figure stageFigure(String base, String title, String xTitle, String yTitle, List<String> bars, List<String> panelOf,
                                      List<String> stages, double[][] values, boolean stacked, boolean passiveAck) {
        Set<String> panelNames = new LinkedHashSet<>(panelOf);
        if (bars.size() <= MAX_BARS || panelNames.size() < 2) {
            return new Figure(base, Plots.stageBars(title, xTitle, yTitle, bars, stages, values, stacked, passiveAck));
        }
        List<Chart<?, ?>> charts = new ArrayList<>();
        double yMax = 0;
        Set<String> used = new LinkedHashSet<>();
        for (String panel : panelNames) {
            List<String> pb = new ArrayList<>();
            List<double[]> pv = new ArrayList<>();
            for (int i = 0; i < bars.size(); i++) {
                if (!panelOf.get(i).equals(panel)) continue;
                pb.add(bars.get(i));
                pv.add(values[i]);
                double sum = 0;
                for (double v : values[i]) {
                    if (!Double.isFinite(v)) continue;
                    sum = stacked ? sum + v : Math.max(sum, v);
                }
                yMax = Math.max(yMax, sum);
            }
            double[][] arr = pv.toArray(double[][]::new);
            for (int s : Plots.keptStages(stages, arr)) used.add(stages.get(s));
            charts.add(Plots.stageBars(panel, xTitle, yTitle, pb, stages, arr, stacked, passiveAck));
        }
        List<Grid.LegendEntry> legend = new ArrayList<>();
        for (String s : stages) if (used.contains(s)) legend.add(new Grid.LegendEntry(Plots.stageName(s, stages, values, passiveAck), ChartStyle.stageColour(s), true));
        return grid(base, title, charts, yMax, legend);
    }

    /**
     * Per-stage p99 as grouped bars: the stages on the x axis, one bar per series (run, point or code), a panel per
     * distinct {@code panelOf} value when there are more than {@link Figures#MAX_SERIES} series; panels share the y range.
     */
    static Figure stageP99Figure(String base, String title, List<String> series, List<String> panelOf, List<String> stages,
                                 double[][] p99) {
        Set<String> panelNames = new LinkedHashSet<>(panelOf);
        boolean split = series.size() > MAX_SERIES && panelNames.size() > 1;
        Map<String, Color> colours = ChartStyle.seriesColours(new ArrayList<>(new LinkedHashSet<>(series)));
        List<Chart<?, ?>> charts = new ArrayList<>();
        double yMax = 0;
        for (String panel : split ? panelNames : Set.of("")) {
            List<Integer> rows = new ArrayList<>();
            for (int i = 0; i < series.size(); i++) if (!split || panelOf.get(i).equals(panel)) rows.add(i);
            double[][] vals = new double[rows.size()][];
            for (int i = 0; i < rows.size(); i++) vals[i] = p99[rows.get(i)];
            List<Integer> kept = Plots.keptStages(stages, vals);
            if (kept.isEmpty()) continue;
            List<String> cats = new ArrayList<>();
            for (int s : kept) cats.add(stages.get(s));
            List<Plots.Bars> bars = new ArrayList<>();
            for (int i = 0; i < rows.size(); i++) {
                List<Double> vs = new ArrayList<>();
                for (int s : kept) {
                    vs.add(vals[i][s]);
                    yMax = Math.max(yMax, finite(vals[i][s]));
                }
                bars.add(new Plots.Bars(series.get(rows.get(i)), vs, null));
            }
            charts.add(Plots.groupedBarsChart(split ? panel : title, "stage", "stage latency, p99 (us)", cats, bars, colours));
        }
        if (charts.isEmpty()) return null;
        if (!split) return new Figure(base, charts.get(0));
        // the same series in every panel (hybrid modes): one shared legend; else each panel keeps its own
        boolean shared = new LinkedHashSet<>(series).size() * panelNames.size() == series.size();
        List<Grid.LegendEntry> legend = new ArrayList<>();
        if (shared) for (String s : new LinkedHashSet<>(series)) legend.add(new Grid.LegendEntry(s, colours.get(s), true));
        return grid(base, title, charts, yMax, legend);
    }

    /** Lines in one chart, or a panel per distinct {@code panelOf} value when there are more than {@link Figures#MAX_SERIES}. */
    static Figure linesFigure(String base, String title, String xTitle, String yTitle, List<Plots.Line> lines, List<String> panelOf,
                                      List<String> categories) {
        List<String> names = new ArrayList<>();
        for (Plots.Line l : lines) names.add(l.name());
        Map<String, Color> colours = ChartStyle.seriesColours(names);
        Set<String> panelNames = panelOf == null ? Set.of() : new LinkedHashSet<>(panelOf);
        if (lines.size() <= MAX_SERIES || panelNames.size() < 2) {
            return new Figure(base, Plots.linesChart(title, xTitle, yTitle, lines, categories, colours));
        }
        List<Chart<?, ?>> charts = new ArrayList<>();
        for (String panel : panelNames) {
            List<Plots.Line> pl = new ArrayList<>();
            for (int i = 0; i < lines.size(); i++) if (panelOf.get(i).equals(panel)) pl.add(lines.get(i));
            XYChart c = Plots.linesChart(panel, xTitle, yTitle, pl, categories, colours);
            c.getStyler().setLegendVisible(true);
            c.getStyler().setLegendPosition(Styler.LegendPosition.InsideSE);
            charts.add(c);
        }
        return grid(base, title, charts, 0, List.of()); // each panel keeps its own y range
    }

    /**
     * Panels under one title and legend, a row of up to three; with {@code yMax} above 0 they share the y range up
     * to it (plus 5%).
     */
    static Figure grid(String base, String title, List<Chart<?, ?>> charts, double yMax, List<Grid.LegendEntry> legend) {
        for (Chart<?, ?> c : charts) setYMax(c, yMax * 1.05);
        return new Figure(base, new Grid(title, charts, columns(charts.size()), legend));
    }

    private static int columns(int panels) {
        return panels <= 2 ? panels : panels <= 4 ? 2 : 3;
    }

    private static void setYMax(Chart<?, ?> c, double max) {
        if (max <= 0 || !Double.isFinite(max)) return;
        if (c instanceof XYChart xy) xy.getStyler().setYAxisMax(max);
        if (c instanceof CategoryChart cc) cc.getStyler().setYAxisMax(max);
    }
}
