package org.rccj.results;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts of RCC-J (XChart), each written as {@code BASE.png} and {@code BASE.svg}: stacked stage
 * breakdowns (RCC Fig. 13), the hybrid-code scatter of latency against throughput (Fig. 14) and sweep
 * lines. Every chart has a title, axis titles with units and a legend. Runs headless.
 */
public final class Plots {
    static {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    }

    /** The files one chart was written to. */
    public record Saved(Path png, Path svg) {}

    /** What a point of the hybrid scatter is. */
    public enum Kind { CODE, ALL_RPC, ALL_ONESIDED, BEST }

    /** A hybrid code in the scatter: throughput (txns/s) and mean latency (us). */
    public record ScatterPoint(int code, String label, double tps, double latencyUs, Kind kind) {}

    /** One line of a line chart; {@code err} (95% CI half-widths) may be null. x values are Doubles or Strings. */
    public record Line(String name, List<Double> x, List<Double> y, List<Double> err) {}

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    private static final Font AXIS = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font TICKS = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    private Plots() {}

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
        if (bars.isEmpty()) throw new IllegalArgumentException("no bars to plot");
        // stages that never took time (EXECUTE on sim) would only clutter the legend
        List<String> keptStages = new ArrayList<>();
        List<Integer> kept = new ArrayList<>();
        for (int s = 0; s < stages.size(); s++) {
            boolean any = false;
            for (double[] row : us) any |= Double.isFinite(row[s]) && row[s] != 0;
            if (any) {
                keptStages.add(stages.get(s));
                kept.add(s);
            }
        }
        if (kept.isEmpty()) throw new IllegalArgumentException("no stage took any time");
        int width = Math.max(800, Math.min(4000, 220 + (bars.size() > 24 ? 22 : 40) * bars.size()));
        CategoryChart chart = new CategoryChartBuilder().width(width).height(560).title(title)
                .xAxisTitle(xTitle).yAxisTitle("stage latency, mean (us), stacked").build();
        style(chart.getStyler());
        chart.getStyler().setStacked(true);
        chart.getStyler().setOverlapped(false);
        chart.getStyler().setAvailableSpaceFill(0.7);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        boolean longLabels = false;
        for (String b : bars) longLabels |= b.length() > 6;
        if (longLabels || bars.size() > 24) chart.getStyler().setXAxisLabelRotation(longLabels ? 45 : 90);
        for (int i = 0; i < kept.size(); i++) {
            int s = kept.get(i);
            List<Double> ys = new ArrayList<>();
            for (double[] row : us) ys.add(Double.isFinite(row[s]) ? row[s] : 0.0);
            chart.addSeries(keptStages.get(i), new ArrayList<>(bars), ys);
        }
        return chart;
    }

    /**
     * Latency (y, us) against throughput (x) of every hybrid code; the two pure codes and the best code get
     * their own markers and legend entries (a pure code that is also the fastest keeps its pure marker and
     * says ", the best").
     */
    public static Saved hybridScatter(String title, List<ScatterPoint> points, Path dir, String base) throws IOException {
        return save(hybridScatterChart(title, points), dir, base);
    }

    /** The chart of {@link #hybridScatter}. */
    public static XYChart hybridScatterChart(String title, List<ScatterPoint> points) {
        if (points.isEmpty()) throw new IllegalArgumentException("no hybrid codes to plot");
        double maxTps = 0;
        ScatterPoint fastest = null;
        for (ScatterPoint p : points) {
            if (Double.isFinite(p.tps()) && (fastest == null || p.tps() > fastest.tps())) fastest = p;
            if (Double.isFinite(p.tps())) maxTps = Math.max(maxTps, p.tps());
        }
        RateUnit unit = RateUnit.of(maxTps);
        XYChart chart = new XYChartBuilder().width(900).height(620).title(title)
                .xAxisTitle("throughput (" + unit.label + ")").yAxisTitle("latency, mean (us)").build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        chart.getStyler().setMarkerSize(9);
        chart.getStyler().setXAxisDecimalPattern("#,##0.###");
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        for (Kind k : Kind.values()) {
            List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
            String name = null;
            for (ScatterPoint p : points) {
                if (p.kind() != k || !Double.isFinite(p.tps()) || !Double.isFinite(p.latencyUs())) continue;
                xs.add(p.tps() / unit.divisor);
                ys.add(p.latencyUs());
                name = switch (k) {
                    case CODE -> "other hybrid codes";
                    case ALL_RPC -> "all-rpc (code " + p.code() + ")" + (p == fastest ? ", the best" : "");
                    case ALL_ONESIDED -> "all-onesided (code " + p.code() + ")" + (p == fastest ? ", the best" : "");
                    case BEST -> "best: code " + p.code() + " (" + p.label() + ")";
                };
            }
            if (xs.isEmpty()) continue;
            XYSeries s = chart.addSeries(name, xs, ys);
            switch (k) {
                case CODE -> { s.setMarker(SeriesMarkers.CIRCLE); s.setMarkerColor(new Color(90, 120, 180)); }
                case ALL_RPC -> { s.setMarker(SeriesMarkers.DIAMOND); s.setMarkerColor(new Color(200, 40, 40)); }
                case ALL_ONESIDED -> { s.setMarker(SeriesMarkers.SQUARE); s.setMarkerColor(new Color(20, 150, 60)); }
                case BEST -> { s.setMarker(SeriesMarkers.TRIANGLE_UP); s.setMarkerColor(new Color(230, 140, 0)); }
            }
        }
        return chart;
    }

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
        if (lines.isEmpty()) throw new IllegalArgumentException("no lines to plot");
        // few lines: legend below the plot; many (e.g. 7 protocols x 2 modes): a column on the right, which
        // does not clip however many there are
        boolean many = lines.size() > 4;
        XYChart chart = new XYChartBuilder().width(many ? 1100 : 900).height(600).title(title).xAxisTitle(xTitle).yAxisTitle(yTitle).build();
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
        for (Line l : lines) {
            XYSeries s = l.err() == null ? chart.addSeries(l.name(), l.x(), l.y()) : chart.addSeries(l.name(), l.x(), l.y(), l.err());
            s.setLineStyle(new BasicStroke(2f));
        }
        return chart;
    }

    /** A unit for throughput axes: txns/s, K txns/s or M txns/s by the largest value. */
    public record RateUnit(String label, double divisor) {
        public static RateUnit of(double max) {
            if (max >= 1e6) return new RateUnit("M txns/s", 1e6);
            if (max >= 1e3) return new RateUnit("K txns/s", 1e3);
            return new RateUnit("txns/s", 1);
        }
    }

    private static void style(Styler s) {
        s.setChartTitleFont(TITLE);
        s.setLegendFont(TICKS);
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(Color.GRAY);
        s.setLegendBorderColor(Color.LIGHT_GRAY);
        s.setChartPadding(12);
        if (s instanceof AxesChartStyler a) {
            a.setAxisTitleFont(AXIS);
            a.setAxisTickLabelsFont(TICKS);
            a.setPlotGridLinesColor(new Color(225, 225, 225));
            a.setLocale(Locale.ROOT);
        }
        s.setToolTipsEnabled(false);
    }

    /**
     * Writes {@code dir/BASE.png} and {@code dir/BASE.svg}. XChart draws text as outlines, so the SVG holds
     * the text as shapes (exact, not selectable).
     */
    public static Saved save(Chart<?, ?> chart, Path dir, String base) throws IOException {
        Files.createDirectories(dir);
        Path png = dir.resolve(base + ".png");
        Path svg = dir.resolve(base + ".svg");
        BitmapEncoder.saveBitmap(chart, png.toString(), BitmapEncoder.BitmapFormat.PNG);
        VectorGraphicsEncoder.saveVectorGraphic(chart, svg.toString(), VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        return new Saved(png, svg);
    }
}
