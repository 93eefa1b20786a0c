package org.rccj.results;

import static org.rccj.results.ChartStyle.legendWidth;
import static org.rccj.results.ChartStyle.rotateLabels;
import static org.rccj.results.ChartStyle.seriesColours;
import static org.rccj.results.ChartStyle.stageColour;
import static org.rccj.results.ChartStyle.style;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts of RCC-J (XChart), each written as {@code BASE.png} and {@code BASE.svg}: stacked stage
 * breakdowns (RCC Fig. 13), grouped bars (categorical axes, per-stage p99, the per-protocol comparison of
 * RCC Fig. 14), the hybrid-code scatter of latency against throughput, lines (sweeps, throughput over time,
 * latency CDFs) and {@link Grid}s of such charts as panels sharing one title and legend. Every chart has a
 * title, axis titles with units and a legend. Colours are fixed: one per stage, per hybrid mode and per
 * protocol, the same in every figure ({@link ChartStyle}). The hybrid scatter is {@link HybridScatter}.
 * Runs headless.
 */
public final class Plots {
    static {
        ChartStyle.headless();
    }

    /** The files one chart was written to. */
    public record Saved(Path png, Path svg) {}

    /**
     * One line of a line chart; {@code err} (95% CI half-widths) may be null; {@code warned} (may be null)
     * marks the points whose runs have warnings.
     */
    public record Line(String name, List<Double> x, List<Double> y, List<Double> err, List<Boolean> warned) {
        public Line(String name, List<Double> x, List<Double> y, List<Double> err) { this(name, x, y, err, null); }
    }

    /** One series of grouped bars: a value per category (NaN: no bar), {@code err} may be null. */
    public record Bars(String name, List<Double> values, List<Double> err) {}

    /** Legend name and note of marked points (summary.json has warnings). */
    public static final String WARNED = "run has warnings (summary.json)";

    private Plots() {}

    // ------------------------------------------------------------------ stacked stage breakdown

    /**
     * Stacked bars: one bar per {@code bars} label, one stacked segment per stage (its mean latency, us).
     * @param us us[bar][stage]; NaN counts as 0
     */
    public static Saved stageBreakdown(String title, String xTitle, List<String> bars, List<String> stages, double[][] us,
                                       Path dir, String base) throws IOException {
        return save(stageBreakdownChart(title, xTitle, bars, stages, us), dir, base);
    }

    /** The chart of {@link #stageBreakdown}. */
    public static CategoryChart stageBreakdownChart(String title, String xTitle, List<String> bars, List<String> stages, double[][] us) {
        return stageBars(title, xTitle, "stage latency, mean (us), stacked", bars, stages, us, true, false);
    }

    /**
     * Bars of stage figures (fixed stage colours): stacked (breakdowns) or grouped (per-stage p99), one bar or
     * group per {@code bars} label. Stages that never took time are left out.
     */
    public static CategoryChart stageBars(String title, String xTitle, String yTitle, List<String> bars, List<String> stages,
                                          double[][] values, boolean stacked) {
        return stageBars(title, xTitle, yTitle, bars, stages, values, stacked, false);
    }

    /** As {@link #stageBars(String, String, String, List, List, double[][], boolean)}; {@code passiveAck}: every run drawn has it. */
    public static CategoryChart stageBars(String title, String xTitle, String yTitle, List<String> bars, List<String> stages,
                                          double[][] values, boolean stacked, boolean passiveAck) {
        if (bars.isEmpty()) throw new IllegalArgumentException("no bars to plot");
        List<Integer> kept = keptStages(stages, values);
        if (kept.isEmpty()) throw new IllegalArgumentException("no stage took any time");
        int perBar = stacked ? 1 : kept.size();
        int width = Math.max(800, Math.min(2000, 260 + Math.max(36, 14 * perBar) * bars.size()));
        width = Math.max(width, Math.min(2000, ChartStyle.titleWidth(title)));
        // the legend, centred on the plot area, needs about 30 px an entry: beyond 16 entries (a critical path has up to 22
        // segments) the chart grows by twice what they need beyond the default 560 px, as the plot's centre moves by half
        int height = ChartStyle.heightFor(bars, width) + 2 * Math.max(0, 80 + 30 * kept.size() - 560);
        CategoryChart chart = new CategoryChartBuilder().width(width).height(height).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setStacked(stacked);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setAvailableSpaceFill(stacked ? 0.7 : 0.85);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        rotateLabels(chart, bars);
        for (int s : kept) {
            List<Double> ys = new ArrayList<>();
            for (double[] row : values) ys.add(Double.isFinite(row[s]) ? row[s] : 0.0);
            CategorySeries series = chart.addSeries(stacked ? stageName(stages.get(s), stages, values, passiveAck) : stages.get(s), new ArrayList<>(bars), ys);
            series.setFillColor(stageColour(stages.get(s)));
            series.setLineColor(stageColour(stages.get(s)));
        }
        return chart;
    }

    /**
     * A stage's legend name: when every run drawn has {@code passive_ack} ({@code passiveAck}), COMMIT says why it
     * took (next to) no time on some bars and time on others (an RPC COMMIT with passive ACK awaits no reply), so
     * that a missing segment is not read as a missing figure; without passive ACK that would be untrue, so no note.
     */
    public static String stageName(String stage, List<String> stages, double[][] values, boolean passiveAck) {
        int s = stages.indexOf(stage);
        if (!passiveAck || !stage.equals("COMMIT") || s < 0) return stage;
        double max = 0, min = Double.POSITIVE_INFINITY;
        for (double[] row : values) {
            double v = Double.isFinite(row[s]) ? row[s] : 0;
            max = Math.max(max, v);
            min = Math.min(min, v);
        }
        return max > 0 && min < 0.1 * max ? "COMMIT (~0: passive ACK)" : stage;
    }

    /** Indices of the stages with a non-zero figure in some row. */
    static List<Integer> keptStages(List<String> stages, double[][] values) {
        List<Integer> kept = new ArrayList<>();
        for (int s = 0; s < stages.size(); s++) {
            boolean any = false;
            for (double[] row : values) any |= Double.isFinite(row[s]) && row[s] != 0;
            if (any) kept.add(s);
        }
        return kept;
    }

    // ------------------------------------------------------------------ grouped bars

    /**
     * Grouped bars: one group per category, one bar per series in each (colours by {@link ChartStyle#seriesColours}),
     * 95% CI error bars where a series has them. Category labels ending in " (!)" belong to runs with warnings.
     */
    public static CategoryChart groupedBarsChart(String title, String xTitle, String yTitle, List<String> categories, List<Bars> series) {
        return groupedBarsChart(title, xTitle, yTitle, categories, series, null);
    }

    /** As {@link #groupedBarsChart(String, String, String, List, List)} with the series' colours given (null: chosen here). */
    public static CategoryChart groupedBarsChart(String title, String xTitle, String yTitle, List<String> categories, List<Bars> series,
                                                 Map<String, Color> colours) {
        if (categories.isEmpty() || series.isEmpty()) throw new IllegalArgumentException("no bars to plot");
        int width = Math.max(800, Math.min(1800, 260 + Math.max(60, 26 * series.size()) * categories.size()));
        if (series.size() <= 4) width = Math.max(width, legendWidth(series.stream().map(Bars::name).toList()));
        width = Math.max(width, Math.min(1800, ChartStyle.titleWidth(title)));
        CategoryChart chart = new CategoryChartBuilder().width(width).height(ChartStyle.heightFor(categories, width)).title(title)
                .xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setAvailableSpaceFill(0.8);
        chart.getStyler().setLegendPosition(series.size() > 4 ? Styler.LegendPosition.OutsideE : Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(series.size() > 4 ? Styler.LegendLayout.Vertical : Styler.LegendLayout.Horizontal);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        chart.getStyler().setErrorBarsColor(Color.DARK_GRAY);
        rotateLabels(chart, categories);
        if (colours == null) {
            List<String> names = new ArrayList<>();
            for (Bars b : series) names.add(b.name());
            colours = seriesColours(names);
        }
        for (int i = 0; i < series.size(); i++) {
            Bars b = series.get(i);
            if (b.values().size() != categories.size()) throw new IllegalArgumentException(b.name() + ": one value per category needed");
            List<Double> ys = new ArrayList<>();
            for (Double v : b.values()) ys.add(v != null && Double.isFinite(v) ? v : 0.0);
            CategorySeries s;
            if (b.err() != null) {
                List<Double> es = new ArrayList<>();
                for (Double e : b.err()) es.add(e != null && Double.isFinite(e) ? e : 0.0);
                s = chart.addSeries(b.name(), new ArrayList<>(categories), ys, es);
            } else {
                s = chart.addSeries(b.name(), new ArrayList<>(categories), ys);
            }
            s.setFillColor(colours.get(b.name()));
            s.setLineColor(colours.get(b.name()));
        }
        return chart;
    }

    // ------------------------------------------------------------------ lines

    /**
     * Lines of {@code yTitle} against {@code xTitle}. With {@code categories} non-null the x values are
     * indices into it (a non-numeric varied key) and the ticks show the category names.
     */
    public static Saved lines(String title, String xTitle, String yTitle, List<Line> lines, List<String> categories,
                              Path dir, String base) throws IOException {
        return save(linesChart(title, xTitle, yTitle, lines, categories), dir, base);
    }

    /** The chart of {@link #lines}. */
    public static XYChart linesChart(String title, String xTitle, String yTitle, List<Line> lines, List<String> categories) {
        return linesChart(title, xTitle, yTitle, lines, categories, null);
    }

    /** As {@link #linesChart(String, String, String, List, List)} with the lines' colours given (null: chosen here). */
    public static XYChart linesChart(String title, String xTitle, String yTitle, List<Line> lines, List<String> categories,
                                     Map<String, Color> colours) {
        if (lines.isEmpty()) throw new IllegalArgumentException("no lines to plot");
        // few lines: legend below the plot; many: a column on the right, which does not clip however many there are
        boolean many = lines.size() > 4;
        int width = many ? 1100 : Math.max(900, legendWidth(lines.stream().map(Line::name).toList()));
        XYChart chart = new XYChartBuilder().width(width).height(600).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        chart.getStyler().setLegendPosition(many ? Styler.LegendPosition.OutsideE : Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(many ? Styler.LegendLayout.Vertical : Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(7);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0.###");
        chart.getStyler().setErrorBarsColorSeriesColor(true);
        if (categories != null) {
            List<String> cats = List.copyOf(categories);
            chart.getStyler().setxAxisTickLabelsFormattingFunction(d -> {
                long i = Math.round(d);
                return Math.abs(d - i) < 1e-9 && i >= 0 && i < cats.size() ? cats.get((int) i) : "";
            });
            chart.getStyler().setXAxisMin(-0.5);
            chart.getStyler().setXAxisMax(cats.size() - 0.5);
        } else {
            boolean integral = true;
            for (Line l : lines) for (Double v : l.x()) integral &= v != null && v == Math.rint(v);
            if (integral) { // integer keys (coroutines, nodes): no ticks labelled 1.2, 1.4, ...
                chart.getStyler().setxAxisTickLabelsFormattingFunction(d -> Math.abs(d - Math.rint(d)) < 1e-9
                        ? String.format(Locale.ROOT, "%,d", Math.round(d)) : "");
            } else {
                chart.getStyler().setXAxisDecimalPattern("#,##0.###");
            }
        }
        if (colours == null) {
            List<String> names = new ArrayList<>();
            for (Line l : lines) names.add(l.name());
            colours = seriesColours(names);
        }
        List<double[]> warned = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            Line l = lines.get(i);
            XYSeries s = l.err() == null ? chart.addSeries(l.name(), l.x(), l.y()) : chart.addSeries(l.name(), l.x(), l.y(), l.err());
            s.setLineStyle(new BasicStroke(2f));
            s.setLineColor(colours.get(l.name()));
            s.setMarkerColor(colours.get(l.name()));
            s.setMarker(SeriesMarkers.CIRCLE);
            if (l.warned() != null) {
                for (int j = 0; j < l.x().size(); j++) {
                    if (Boolean.TRUE.equals(l.warned().get(j))) warned.add(new double[] {l.x().get(j), l.y().get(j)});
                }
            }
        }
        addWarnedMarkers(chart, warned);
        return chart;
    }

    /** A red ring around each point whose run has warnings, with one legend entry. */
    static void addWarnedMarkers(XYChart chart, List<double[]> points) {
        if (points.isEmpty()) return;
        List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
        for (double[] p : points) {
            xs.add(p[0]);
            ys.add(p[1]);
        }
        XYSeries s = chart.addSeries(WARNED, xs, ys);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.CROSS);
        s.setMarkerColor(ChartStyle.WARN_COLOUR);
    }

    /** A unit for throughput axes: txns/s, K txns/s or M txns/s by the largest value. */
    public record RateUnit(String label, double divisor) {
        public static RateUnit of(double max) {
            if (max >= 1e6) return new RateUnit("M txns/s", 1e6);
            if (max >= 1e3) return new RateUnit("K txns/s", 1e3);
            return new RateUnit("txns/s", 1);
        }
    }

    // ------------------------------------------------------------------ saving

    /**
     * Writes {@code dir/BASE.png} and {@code dir/BASE.svg}. XChart draws text as outlines, so the SVG holds
     * the text as shapes (exact, not selectable) and, for readers and tests, as {@link SvgText} metadata.
     */
    public static Saved save(Chart<?, ?> chart, Path dir, String base) throws IOException {
        Files.createDirectories(dir);
        Path png = dir.resolve(base + ".png");
        Path svg = dir.resolve(base + ".svg");
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(chart, svg.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        SvgText.embed(svg, chart.getTitle(), List.of(chart), null);
        return new Saved(png, svg);
    }
}
