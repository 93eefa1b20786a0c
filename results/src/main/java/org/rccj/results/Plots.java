package org.rccj.results;

import de.erichseifert.vectorgraphics2d.Document;
import de.erichseifert.vectorgraphics2d.Processor;
import de.erichseifert.vectorgraphics2d.Processors;
import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import de.erichseifert.vectorgraphics2d.util.PageSize;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.Rectangle;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.imageio.ImageIO;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
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
 * breakdowns (RCC Fig. 13), grouped bars (categorical axes, per-stage p99, the per-protocol comparison of
 * RCC Fig. 14), the hybrid-code scatter of latency against throughput, lines (sweeps, throughput over time,
 * latency CDFs) and {@link Grid}s of such charts as panels sharing one title and legend. Every chart has a
 * title, axis titles with units and a legend. Colours are fixed: one per stage, per hybrid mode and per
 * protocol, the same in every figure. Runs headless.
 */
public final class Plots {
    static {
        if (System.getProperty("java.awt.headless") == null) System.setProperty("java.awt.headless", "true");
    }

    /** The files one chart was written to. */
    public record Saved(Path png, Path svg) {}

    /** What a point of the hybrid scatter is. */
    public enum Kind { CODE, ALL_RPC, ALL_ONESIDED, BEST }

    /**
     * A hybrid code in the scatter: throughput (txns/s) and mean latency (us); {@code warned} when its
     * summary.json has warnings.
     */
    public record ScatterPoint(int code, String label, double tps, double latencyUs, Kind kind, boolean warned) {
        public ScatterPoint(int code, String label, double tps, double latencyUs, Kind kind) {
            this(code, label, tps, latencyUs, kind, false);
        }
    }

    /**
     * One line of a line chart; {@code err} (95% CI half-widths) may be null; {@code warned} (may be null)
     * marks the points whose runs have warnings.
     */
    public record Line(String name, List<Double> x, List<Double> y, List<Double> err, List<Boolean> warned) {
        public Line(String name, List<Double> x, List<Double> y, List<Double> err) { this(name, x, y, err, null); }
    }

    /** One series of grouped bars: a value per category (NaN: no bar), {@code err} may be null. */
    public record Bars(String name, List<Double> values, List<Double> err) {}

    /** An entry of a {@link Grid}'s shared legend: a filled box (bars) or a line with a marker. */
    public record LegendEntry(String name, Color colour, boolean box) {}

    /**
     * Panels under one title and one legend: {@code columns} charts a row, each keeping its own axis titles
     * (their own legends are hidden).
     */
    public record Grid(String title, List<Chart<?, ?>> panels, int columns, List<LegendEntry> legend) {
        public Grid {
            if (panels.isEmpty()) throw new IllegalArgumentException("no panels to draw");
            if (columns < 1) throw new IllegalArgumentException("columns must be >= 1");
            panels = List.copyOf(panels);
            legend = List.copyOf(legend);
        }
    }

    /** Legend name and note of marked points (summary.json has warnings). */
    public static final String WARNED = "run has warnings (summary.json)";

    private static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    private static final Font PANEL_TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 14);
    private static final Font AXIS = new Font(Font.SANS_SERIF, Font.PLAIN, 13);
    private static final Font TICKS = new Font(Font.SANS_SERIF, Font.PLAIN, 11);

    // ------------------------------------------------------------------ colours

    /** One colour per stage in every figure (Paul Tol's muted scheme, colour-blind safe; EXECUTE grey). */
    private static final Map<String, Color> STAGE_COLOURS = Map.ofEntries(
            Map.entry("LOCK", new Color(0x332288)), Map.entry("READ", new Color(0x88CCEE)), Map.entry("LOG", new Color(0xDDCC77)),
            Map.entry("RELEASE", new Color(0x117733)), Map.entry("COMMIT", new Color(0xCC6677)), Map.entry("VALIDATE", new Color(0x882255)),
            Map.entry("RENEW", new Color(0x44AA99)), Map.entry("DISPATCH", new Color(0x999933)), Map.entry("FORWARD", new Color(0xAA4499)),
            Map.entry("EPOCH_SYNC", new Color(0x661100)), Map.entry(StageBreakdown.EXECUTE, new Color(0xBBBBBB)));

    /** Hybrid modes and protocols (Okabe-Ito). */
    private static final Map<String, Color> NAMED_COLOURS = Map.ofEntries(
            Map.entry("all-rpc", new Color(0xD55E00)), Map.entry("all-onesided", new Color(0x0072B2)),
            Map.entry("best hybrid", new Color(0x009E73)),
            Map.entry("nowait", new Color(0x000000)), Map.entry("waitdie", new Color(0xE69F00)),
            Map.entry("occ", new Color(0x56B4E9)), Map.entry("mvcc", new Color(0x009E73)),
            Map.entry("sundial", new Color(0xCC79A7)), Map.entry("calvin", new Color(0x0072B2)),
            Map.entry("drtm", new Color(0xD55E00)), Map.entry("hades", new Color(0x8C6D00)));

    /** For series with no fixed colour, in order of appearance. */
    private static final Color[] PALETTE = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
            new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0x8C6D00),
            new Color(0x332288), new Color(0x882255), new Color(0x44AA99), new Color(0x999999)};

    private static final Color WARN_COLOUR = new Color(0xC00000);

    /** The colour of a stage (any other name: grey-blue). */
    public static Color stageColour(String stage) {
        int note = stage.indexOf(" ("); // a legend name with its note: "COMMIT (~0: passive ACK)"
        return STAGE_COLOURS.getOrDefault(note < 0 ? stage : stage.substring(0, note), new Color(0x5577AA));
    }

    /**
     * The colour of a series: the fixed colour of a hybrid mode or protocol, named whole or as a word
     * ("occ all-rpc" takes all-rpc's), else null.
     */
    public static Color fixedColour(String name) {
        Color c = NAMED_COLOURS.get(name);
        if (c != null) return c;
        String[] words = name.split(" ");
        for (int i = words.length - 1; i >= 0; i--) {
            c = NAMED_COLOURS.get(words[i]);
            if (c != null) return c;
        }
        return null;
    }

    /**
     * Colours for the series {@code names}: the fixed colour where there is one and no earlier series took it,
     * distinct palette colours for the rest.
     */
    public static Map<String, Color> seriesColours(List<String> names) {
        Map<String, Color> out = new LinkedHashMap<>();
        Set<Color> used = new java.util.HashSet<>();
        for (String n : names) {
            Color c = fixedColour(n);
            if (c != null && used.add(c)) out.put(n, c);
        }
        int next = 0;
        for (String n : names) {
            if (out.containsKey(n)) continue;
            Color c;
            do {
                c = PALETTE[next++ % PALETTE.length];
            } while (used.contains(c) && next < PALETTE.length * 2);
            used.add(c);
            out.put(n, c);
        }
        return out;
    }

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
        return stageBars(title, xTitle, "stage latency, mean (us), stacked", bars, stages, us, true);
    }

    /**
     * Bars of stage figures (fixed stage colours): stacked (breakdowns) or grouped (per-stage p99), one bar or
     * group per {@code bars} label. Stages that never took time are left out.
     */
    public static CategoryChart stageBars(String title, String xTitle, String yTitle, List<String> bars, List<String> stages,
                                          double[][] values, boolean stacked) {
        if (bars.isEmpty()) throw new IllegalArgumentException("no bars to plot");
        List<Integer> kept = keptStages(stages, values);
        if (kept.isEmpty()) throw new IllegalArgumentException("no stage took any time");
        int perBar = stacked ? 1 : kept.size();
        int width = Math.max(800, Math.min(2000, 260 + Math.max(36, 14 * perBar) * bars.size()));
        CategoryChart chart = new CategoryChartBuilder().width(width).height(560).title(title)
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
            CategorySeries series = chart.addSeries(stacked ? stageName(stages.get(s), stages, values) : stages.get(s), new ArrayList<>(bars), ys);
            series.setFillColor(stageColour(stages.get(s)));
            series.setLineColor(stageColour(stages.get(s)));
        }
        return chart;
    }

    /**
     * A stage's legend name: COMMIT says why when it took (next to) no time on some bars and time on others (an
     * RPC COMMIT with passive ACK awaits no reply), so that a missing segment is not read as a missing figure.
     */
    public static String stageName(String stage, List<String> stages, double[][] values) {
        int s = stages.indexOf(stage);
        if (!stage.equals("COMMIT") || s < 0) return stage;
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

    /**
     * Turns category labels that would not fit side by side upright (90 degrees), centred on their tick: a label
     * turned 45 degrees and centred on its tick reads as the next bar's, and right-aligned the first one runs off
     * the chart's left edge.
     */
    static void rotateLabels(CategoryChart chart, List<String> labels) {
        int longest = 0;
        for (String b : labels) longest = Math.max(longest, b.length());
        // about 7 px a character at the tick font, and a gap: do the labels fit side by side under the plot?
        boolean crowded = labels.size() * (7 * longest + 12) > chart.getWidth() - 220;
        chart.getStyler().setXAxisLabelRotation(crowded ? 90 : 0);
    }

    // ------------------------------------------------------------------ grouped bars

    /**
     * Grouped bars: one group per category, one bar per series in each (colours by {@link #seriesColours}),
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
        CategoryChart chart = new CategoryChartBuilder().width(width).height(560).title(title)
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

    // ------------------------------------------------------------------ hybrid scatter

    /**
     * Latency (y, us) against throughput (x) of every hybrid code; the two pure codes and the best code get
     * their own markers and legend entries (a pure code that is also the fastest keeps its pure marker and
     * says ", the best"). The Pareto front (no other code has both more throughput and less latency) is
     * joined by a dashed line; its codes, the pure codes and the three fastest are labelled with their code.
     */
    public static Saved hybridScatter(String title, List<ScatterPoint> points, Path dir, String base) throws IOException {
        return save(hybridScatterChart(title, points), dir, base);
    }

    /** The chart of {@link #hybridScatter}. */
    public static XYChart hybridScatterChart(String title, List<ScatterPoint> points) {
        return hybridScatterChart(title, points, "throughput", null);
    }

    /**
     * As {@link #hybridScatterChart(String, List)} with {@code xTitle} before the unit and {@code note} (may be
     * null; e.g. what the code labels mean) after it.
     */
    public static XYChart hybridScatterChart(String title, List<ScatterPoint> points, String xTitle, String note) {
        if (points.isEmpty()) throw new IllegalArgumentException("no hybrid codes to plot");
        double maxTps = 0;
        ScatterPoint fastest = null;
        List<ScatterPoint> finite = new ArrayList<>();
        for (ScatterPoint p : points) {
            if (!Double.isFinite(p.tps()) || !Double.isFinite(p.latencyUs())) continue;
            finite.add(p);
            if (fastest == null || p.tps() > fastest.tps()) fastest = p;
            maxTps = Math.max(maxTps, p.tps());
        }
        RateUnit unit = RateUnit.of(maxTps);
        List<String> legendNames = new ArrayList<>(List.of("Pareto front (labelled)", "other hybrid codes", WARNED));
        for (ScatterPoint p : finite) if (p.kind() != Kind.CODE) legendNames.add(kindName(p, fastest));
        XYChart chart = new XYChartBuilder().width(Math.max(1000, legendWidth(legendNames))).height(680).title(title)
                .xAxisTitle(xTitle + " (" + unit.label + ")" + (note == null ? "" : "; " + note)).yAxisTitle("latency, mean (us)").build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(10);
        chart.getStyler().setXAxisDecimalPattern("#,##0.###");
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        chart.getStyler().setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.BOLD, 11));
        chart.getStyler().setAnnotationTextFontColor(Color.DARK_GRAY);

        List<ScatterPoint> front = paretoFront(finite);
        if (front.size() > 1) {
            List<Double> fx = new ArrayList<>(), fy = new ArrayList<>();
            for (ScatterPoint p : front) {
                fx.add(p.tps() / unit.divisor);
                fy.add(p.latencyUs());
            }
            XYSeries s = chart.addSeries("Pareto front (labelled)", fx, fy);
            s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
            s.setMarker(SeriesMarkers.NONE);
            s.setLineColor(new Color(0x777777));
            s.setLineStyle(new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        for (Kind k : Kind.values()) {
            List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
            String name = null;
            for (ScatterPoint p : finite) {
                if (p.kind() != k) continue;
                xs.add(p.tps() / unit.divisor);
                ys.add(p.latencyUs());
                name = kindName(p, fastest);
            }
            if (xs.isEmpty()) continue;
            XYSeries s = chart.addSeries(name, xs, ys);
            switch (k) {
                case CODE -> { s.setMarker(SeriesMarkers.CIRCLE); s.setMarkerColor(new Color(120, 140, 180)); }
                case ALL_RPC -> { s.setMarker(SeriesMarkers.DIAMOND); s.setMarkerColor(NAMED_COLOURS.get("all-rpc")); }
                case ALL_ONESIDED -> { s.setMarker(SeriesMarkers.SQUARE); s.setMarkerColor(NAMED_COLOURS.get("all-onesided")); }
                case BEST -> { s.setMarker(SeriesMarkers.TRIANGLE_UP); s.setMarkerColor(NAMED_COLOURS.get("best hybrid")); }
            }
        }
        addWarnedMarkers(chart, finite.stream().filter(ScatterPoint::warned).map(p -> new double[] {p.tps() / unit.divisor, p.latencyUs()}).toList());

        double minX = Double.POSITIVE_INFINITY, maxX = Double.NEGATIVE_INFINITY, minY = Double.POSITIVE_INFINITY, maxY = Double.NEGATIVE_INFINITY;
        for (ScatterPoint p : finite) {
            minX = Math.min(minX, p.tps() / unit.divisor);
            maxX = Math.max(maxX, p.tps() / unit.divisor);
            minY = Math.min(minY, p.latencyUs());
            maxY = Math.max(maxY, p.latencyUs());
        }
        // fixed axis ranges with room around the points for their labels, so the layout measured below is the final one
        double padX = (maxX > minX ? maxX - minX : Math.max(1, maxX)) * 0.06, padY = (maxY > minY ? maxY - minY : Math.max(1, maxY)) * 0.08;
        chart.getStyler().setXAxisMin(Math.max(0, minX - padX));
        chart.getStyler().setXAxisMax(maxX + padX);
        chart.getStyler().setYAxisMin(Math.max(0, minY - padY));
        chart.getStyler().setYAxisMax(maxY + padY);
        placeLabels(chart, finite, scatterLabels(finite), unit.divisor);
        return chart;
    }

    private static String kindName(ScatterPoint p, ScatterPoint fastest) {
        return switch (p.kind()) {
            case CODE -> "other hybrid codes";
            case ALL_RPC -> "all-rpc (code " + p.code() + ")" + (p == fastest ? ", the best" : "");
            case ALL_ONESIDED -> "all-onesided (code " + p.code() + ")" + (p == fastest ? ", the best" : "");
            case BEST -> "best: code " + p.code() + " (" + p.label() + ")";
        };
    }

    /** The width a legend below the plot needs for {@code names} in one row (XChart clips a wider one at the right edge). */
    static int legendWidth(List<String> names) {
        BufferedImage img = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        FontMetrics fm = g.getFontMetrics(TICKS);
        int need = 2 * 12 + 2 * 10 + 20;
        for (String name : names) need += fm.stringWidth(name) + 24 + 3 * 10 + 6;
        g.dispose();
        return need;
    }

    /**
     * Labels the scatter's points without overlaps: the chart is laid out once (axis ranges fixed before), each
     * label then takes the first place around its point (above, below, right, left, the diagonals, then farther)
     * whose box overlaps no label placed before, no marker and stays inside the plot. Points closer than a
     * marker share one label ("47, 39"). Labels are annotations in screen space.
     */
    private static void placeLabels(XYChart chart, List<ScatterPoint> points, Map<ScatterPoint, String> labels, double divisor) {
        BufferedImage img = new BufferedImage(chart.getWidth(), chart.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        chart.paint(g, chart.getWidth(), chart.getHeight());
        FontMetrics fm = g.getFontMetrics(chart.getStyler().getAnnotationTextFont());
        g.dispose();
        double left = chart.getScreenXFromChart(chart.getStyler().getXAxisMin()), right = chart.getScreenXFromChart(chart.getStyler().getXAxisMax());
        double top = chart.getScreenYFromChart(chart.getStyler().getYAxisMax()), bottom = chart.getScreenYFromChart(chart.getStyler().getYAxisMin());
        java.awt.geom.Rectangle2D plot = new java.awt.geom.Rectangle2D.Double(left, top, right - left, bottom - top);
        double r = chart.getStyler().getMarkerSize() / 2.0 + 1;
        List<java.awt.geom.Rectangle2D> taken = new ArrayList<>();
        Map<ScatterPoint, double[]> at = new LinkedHashMap<>();
        for (ScatterPoint p : points) {
            double[] xy = {chart.getScreenXFromChart(p.tps() / divisor), chart.getScreenYFromChart(p.latencyUs())};
            at.put(p, xy);
            taken.add(new java.awt.geom.Rectangle2D.Double(xy[0] - r, xy[1] - r, 2 * r, 2 * r));
        }
        // points within a marker of each other share a label
        List<ScatterPoint> order = new ArrayList<>(labels.keySet());
        Map<ScatterPoint, String> text = new LinkedHashMap<>();
        for (ScatterPoint p : order) {
            ScatterPoint host = null;
            for (ScatterPoint q : text.keySet()) {
                if (Math.hypot(at.get(p)[0] - at.get(q)[0], at.get(p)[1] - at.get(q)[1]) < 2 * r) host = q;
            }
            if (host != null) text.put(host, text.get(host) + ", " + labels.get(p));
            else text.put(p, labels.get(p));
        }
        int h = fm.getAscent() + fm.getDescent();
        for (Map.Entry<ScatterPoint, String> e : text.entrySet()) {
            double[] xy = at.get(e.getKey());
            int w = fm.stringWidth(e.getValue());
            java.awt.geom.Rectangle2D chosen = null;
            for (int far = 1; far <= 6 && chosen == null; far++) {
                double dy = r + 2 + h / 2.0 + (far - 1) * (h + 2), dx = r + 3 + w / 2.0 + (far - 1) * 12;
                double[][] offsets = {{0, -dy}, {0, dy}, {dx, 0}, {-dx, 0}, {dx, -dy}, {-dx, -dy}, {dx, dy}, {-dx, dy}};
                for (double[] o : offsets) {
                    java.awt.geom.Rectangle2D box = new java.awt.geom.Rectangle2D.Double(xy[0] + o[0] - w / 2.0 - 1, xy[1] + o[1] - h / 2.0 - 1, w + 2, h + 2);
                    if (!plot.contains(box)) continue;
                    boolean free = true;
                    for (java.awt.geom.Rectangle2D t : taken) free &= !t.intersects(box);
                    if (free) {
                        chosen = box;
                        break;
                    }
                }
            }
            if (chosen == null) continue; // no free place near it: left unlabelled rather than drawn over another
            taken.add(chosen);
            chart.addAnnotation(new AnnotationText(e.getValue(), chosen.getCenterX(), chart.getHeight() - chosen.getCenterY(), true));
        }
    }

    /**
     * The points the scatter labels and their text: the pure codes ("all-rpc", "all-onesided"), the three
     * fastest and the Pareto front (their code), each once.
     */
    public static Map<ScatterPoint, String> scatterLabels(List<ScatterPoint> points) {
        List<ScatterPoint> finite = new ArrayList<>();
        for (ScatterPoint p : points) if (Double.isFinite(p.tps()) && Double.isFinite(p.latencyUs())) finite.add(p);
        List<ScatterPoint> byTps = new ArrayList<>(finite);
        byTps.sort((a, b) -> Double.compare(b.tps(), a.tps()));
        Set<ScatterPoint> chosen = new java.util.LinkedHashSet<>();
        for (ScatterPoint p : finite) if (p.kind() == Kind.ALL_RPC || p.kind() == Kind.ALL_ONESIDED) chosen.add(p);
        chosen.addAll(byTps.subList(0, Math.min(3, byTps.size())));
        chosen.addAll(paretoFront(finite));
        Map<ScatterPoint, String> out = new LinkedHashMap<>();
        for (ScatterPoint p : chosen) {
            out.put(p, p.kind() == Kind.ALL_RPC ? "all-rpc" : p.kind() == Kind.ALL_ONESIDED ? "all-onesided" : Integer.toString(p.code()));
        }
        return out;
    }

    /**
     * The Pareto front of latency against throughput, by throughput ascending: the points no other point beats
     * on both (more throughput and no more latency, or less latency and no less throughput).
     */
    public static List<ScatterPoint> paretoFront(List<ScatterPoint> points) {
        List<ScatterPoint> sorted = new ArrayList<>(points);
        // fastest first; among equal throughput the lowest latency first
        sorted.sort((a, b) -> a.tps() != b.tps() ? Double.compare(b.tps(), a.tps()) : Double.compare(a.latencyUs(), b.latencyUs()));
        List<ScatterPoint> front = new ArrayList<>();
        double bestLatency = Double.POSITIVE_INFINITY;
        for (ScatterPoint p : sorted) {
            if (p.latencyUs() < bestLatency) {
                front.add(p);
                bestLatency = p.latencyUs();
            }
        }
        java.util.Collections.reverse(front);
        return front;
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
    private static void addWarnedMarkers(XYChart chart, List<double[]> points) {
        if (points.isEmpty()) return;
        List<Double> xs = new ArrayList<>(), ys = new ArrayList<>();
        for (double[] p : points) {
            xs.add(p[0]);
            ys.add(p[1]);
        }
        XYSeries s = chart.addSeries(WARNED, xs, ys);
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        s.setMarker(SeriesMarkers.CROSS);
        s.setMarkerColor(WARN_COLOUR);
    }

    /** A unit for throughput axes: txns/s, K txns/s or M txns/s by the largest value. */
    public record RateUnit(String label, double divisor) {
        public static RateUnit of(double max) {
            if (max >= 1e6) return new RateUnit("M txns/s", 1e6);
            if (max >= 1e3) return new RateUnit("K txns/s", 1e3);
            return new RateUnit("txns/s", 1);
        }
    }

    static void style(Styler s) {
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

    // ------------------------------------------------------------------ saving

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

    /** Writes a grid of panels as {@code dir/BASE.png} and {@code dir/BASE.svg}. */
    public static Saved save(Grid grid, Path dir, String base) throws IOException {
        Files.createDirectories(dir);
        Layout l = layout(grid);
        Path png = dir.resolve(base + ".png");
        BufferedImage img = new BufferedImage(l.width, l.height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        paint(grid, l, g);
        g.dispose();
        ImageIO.write(img, "png", png.toFile());

        Path svg = dir.resolve(base + ".svg");
        VectorGraphics2D vg = new VectorGraphics2D();
        vg.draw(new Rectangle()); // as XChart's encoder does: starts the command sequence with a harmless shape
        paint(grid, l, vg);
        Processor p = Processors.get("svg");
        Document doc = p.getDocument(vg.getCommands(), new PageSize(0.0, 0.0, l.width, l.height));
        try (OutputStream os = Files.newOutputStream(svg)) {
            doc.writeTo(os);
        }
        return new Saved(png, svg);
    }

    /** Draws a figure onto {@code g} at the size it is saved at, and returns that size (for checks of its layout). */
    static java.awt.Dimension draw(Figures.Figure f, Graphics2D g) {
        if (f.chart() != null) {
            f.chart().paint(g, f.chart().getWidth(), f.chart().getHeight());
            return new java.awt.Dimension(f.chart().getWidth(), f.chart().getHeight());
        }
        Layout l = layout(f.grid());
        paint(f.grid(), l, g);
        return new java.awt.Dimension(l.width, l.height);
    }

    private record Layout(int width, int height, int cellW, int cellH, int titleH, int legendH, int columns) {}

    private static Layout layout(Grid grid) {
        int cols = Math.min(grid.columns(), grid.panels().size());
        int rows = (grid.panels().size() + cols - 1) / cols;
        int cellW = 0, cellH = 0;
        for (Chart<?, ?> c : grid.panels()) {
            cellW = Math.max(cellW, c.getWidth());
            cellH = Math.max(cellH, c.getHeight());
        }
        // panels are drawn at the cell size: keep a row of them within about 2000 px
        if (cols >= 3) {
            cellW = Math.min(cellW, 660);
            cellH = Math.min(cellH, 480);
        } else if (cols == 2) {
            cellW = Math.min(cellW, 900);
        }
        int legendRows = grid.legend().isEmpty() ? 0 : legendRows(grid.legend(), cellW * cols);
        return new Layout(cellW * cols, 44 + cellH * rows + legendRows * 22 + (legendRows > 0 ? 16 : 0),
                cellW, cellH, 44, legendRows * 22 + (legendRows > 0 ? 16 : 0), cols);
    }

    private static int entryWidth(LegendEntry e) { return 40 + 8 * e.name().length(); }

    private static int legendRows(List<LegendEntry> legend, int width) {
        int rows = 1, x = 20;
        for (LegendEntry e : legend) {
            if (x + entryWidth(e) > width - 20 && x > 20) {
                rows++;
                x = 20;
            }
            x += entryWidth(e);
        }
        return rows;
    }

    private static void paint(Grid grid, Layout l, Graphics2D g) {
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, l.width, l.height);
        g.setColor(Color.BLACK);
        g.setFont(TITLE);
        FontMetrics fm = g.getFontMetrics();
        g.drawString(grid.title(), Math.max(10, (l.width - fm.stringWidth(grid.title())) / 2), 28);
        for (int i = 0; i < grid.panels().size(); i++) {
            Chart<?, ?> c = grid.panels().get(i);
            c.getStyler().setLegendVisible(grid.legend().isEmpty() && c.getStyler().isLegendVisible());
            c.getStyler().setChartTitleFont(PANEL_TITLE);
            Graphics2D cg = (Graphics2D) g.create((i % l.columns) * l.cellW, l.titleH + (i / l.columns) * l.cellH, l.cellW, l.cellH);
            cg.setColor(Color.WHITE);
            cg.fillRect(0, 0, l.cellW, l.cellH);
            c.paint(cg, l.cellW, l.cellH);
            cg.dispose();
        }
        if (grid.legend().isEmpty()) return;
        g.setFont(AXIS);
        int y0 = l.height - l.legendH + 10, x = 20, row = 0;
        for (LegendEntry e : grid.legend()) {
            if (x + entryWidth(e) > l.width - 20 && x > 20) {
                row++;
                x = 20;
            }
            int y = y0 + row * 22;
            g.setColor(e.colour());
            if (e.box()) {
                g.fillRect(x, y + 2, 16, 14);
            } else {
                g.setStroke(new BasicStroke(2.5f));
                g.drawLine(x - 2, y + 9, x + 20, y + 9);
                g.fillOval(x + 4, y + 4, 10, 10);
            }
            g.setColor(Color.BLACK);
            g.drawString(e.name(), x + 26, y + 14);
            x += entryWidth(e);
        }
    }

    /** Legend entries of stages, in the given order, with their fixed colours. */
    public static List<LegendEntry> stageLegend(List<String> stages) {
        List<LegendEntry> out = new ArrayList<>();
        for (String s : stages) out.add(new LegendEntry(s, stageColour(s), true));
        return out;
    }
}
