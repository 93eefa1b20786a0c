package org.rccj.results;

import static org.rccj.results.ChartStyle.fixedColour;
import static org.rccj.results.ChartStyle.legendWidth;
import static org.rccj.results.ChartStyle.style;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.geom.Rectangle2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.AnnotationText;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.rccj.results.Plots.RateUnit;

/**
 * The hybrid-code scatter of an enumeration: mean latency (y, us) against throughput (x) of every code, the pure
 * and the best codes with their own markers, the Pareto front joined by a dashed line, and labels placed where
 * they overlap nothing.
 */
public final class HybridScatter {
    /** What a point of the hybrid scatter is. */
    public enum Kind { CODE, ALL_RPC, ALL_ONESIDED, BEST }

    /**
     * A hybrid code in the scatter: throughput (txns/s) and mean latency (us); {@code warned} when its
     * summary.json has warnings.
     */
    public record Point(int code, String label, double tps, double latencyUs, Kind kind, boolean warned, double tpsCi, double latencyCi) {
        public Point(int code, String label, double tps, double latencyUs, Kind kind) {
            this(code, label, tps, latencyUs, kind, false);
        }

        /** Without confidence intervals (one seed). */
        public Point(int code, String label, double tps, double latencyUs, Kind kind, boolean warned) {
            this(code, label, tps, latencyUs, kind, warned, Double.NaN, Double.NaN);
        }
    }

    /** Legend name of the error bars (shown when some point has repeats). */
    public static final String CI = "95% CI over seeds (throughput and latency)";

    private HybridScatter() {}

    // ------------------------------------------------------------------ hybrid scatter

    /**
     * Latency (y, us) against throughput (x) of every hybrid code; the two pure codes and the best code get
     * their own markers and legend entries (a pure code that is also the fastest keeps its pure marker and
     * says ", the best"). The Pareto front (no other code has both more throughput and less latency) is
     * joined by a dashed line; its codes, the pure codes and the three fastest are labelled with their code.
     */
    public static Plots.Saved save(String title, List<Point> points, Path dir, String base) throws IOException {
        return Plots.save(chart(title, points), dir, base);
    }

    /** The chart of {@link #save}. */
    public static XYChart chart(String title, List<Point> points) {
        return chart(title, points, "throughput", null);
    }

    /**
     * As {@link #chart(String, List)} with {@code xTitle} before the unit and {@code note} (may be
     * null; e.g. what the code labels mean) after it.
     */
    public static XYChart chart(String title, List<Point> points, String xTitle, String note) {
        if (points.isEmpty()) throw new IllegalArgumentException("no hybrid codes to plot");
        double maxTps = 0;
        Point fastest = null;
        List<Point> finite = new ArrayList<>();
        for (Point p : points) {
            if (!Double.isFinite(p.tps()) || !Double.isFinite(p.latencyUs())) continue;
            finite.add(p);
            if (fastest == null || p.tps() > fastest.tps()) fastest = p;
            maxTps = Math.max(maxTps, p.tps());
        }
        RateUnit unit = RateUnit.of(maxTps);
        List<String> legendNames = new ArrayList<>(List.of("Pareto front (labelled)", "other hybrid codes", Plots.WARNED));
        for (Point p : finite) if (p.kind() != Kind.CODE) legendNames.add(kindName(p, fastest));
        XYChart chart = new XYChartBuilder().width(Math.max(1000, legendWidth(legendNames))).height(680).title(title)
                .xAxisTitle(xTitle + " (" + unit.label() + ")" + (note == null ? "" : "; " + note)).yAxisTitle("latency, mean (us)").build();
        style(chart.getStyler());
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        chart.getStyler().setMarkerSize(10);
        chart.getStyler().setXAxisDecimalPattern("#,##0.###");
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        chart.getStyler().setAnnotationTextFont(new Font(Font.SANS_SERIF, Font.BOLD, 11));
        chart.getStyler().setAnnotationTextFontColor(Color.DARK_GRAY);

        List<Point> front = paretoFront(finite);
        if (front.size() > 1) {
            List<Double> fx = new ArrayList<>(), fy = new ArrayList<>();
            for (Point p : front) {
                fx.add(p.tps() / unit.divisor());
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
            for (Point p : finite) {
                if (p.kind() != k) continue;
                xs.add(p.tps() / unit.divisor());
                ys.add(p.latencyUs());
                name = kindName(p, fastest);
            }
            if (xs.isEmpty()) continue;
            XYSeries s = chart.addSeries(name, xs, ys);
            switch (k) {
                case CODE -> { s.setMarker(SeriesMarkers.CIRCLE); s.setMarkerColor(new Color(120, 140, 180)); }
                case ALL_RPC -> { s.setMarker(SeriesMarkers.DIAMOND); s.setMarkerColor(fixedColour("all-rpc")); }
                case ALL_ONESIDED -> { s.setMarker(SeriesMarkers.SQUARE); s.setMarkerColor(fixedColour("all-onesided")); }
                case BEST -> { s.setMarker(SeriesMarkers.TRIANGLE_UP); s.setMarkerColor(fixedColour("best hybrid")); }
            }
        }
        addErrorBars(chart, finite, unit.divisor());
        Plots.addWarnedMarkers(chart, finite.stream().filter(Point::warned).map(p -> new double[] {p.tps() / unit.divisor(), p.latencyUs()}).toList());

        double minX = Double.POSITIVE_INFINITY, maxX = Double.NEGATIVE_INFINITY, minY = Double.POSITIVE_INFINITY, maxY = Double.NEGATIVE_INFINITY;
        for (Point p : finite) { // the error bars inside the plot too
            double dx = Double.isFinite(p.tpsCi()) ? p.tpsCi() : 0, dy = Double.isFinite(p.latencyCi()) ? p.latencyCi() : 0;
            minX = Math.min(minX, (p.tps() - dx) / unit.divisor());
            maxX = Math.max(maxX, (p.tps() + dx) / unit.divisor());
            minY = Math.min(minY, p.latencyUs() - dy);
            maxY = Math.max(maxY, p.latencyUs() + dy);
        }
        // fixed axis ranges with room around the points for their labels, so the layout measured below is the final one
        double padX = (maxX > minX ? maxX - minX : Math.max(1, maxX)) * 0.06, padY = (maxY > minY ? maxY - minY : Math.max(1, maxY)) * 0.08;
        chart.getStyler().setXAxisMin(Math.max(0, minX - padX));
        chart.getStyler().setXAxisMax(maxX + padX);
        chart.getStyler().setYAxisMin(Math.max(0, minY - padY));
        chart.getStyler().setYAxisMax(maxY + padY);
        placeLabels(chart, finite, labels(finite), unit.divisor());
        return chart;
    }

    /** A cross of thin grey segments through each point with repeats: its throughput and latency 95% CIs (one legend entry). */
    private static void addErrorBars(XYChart chart, List<Point> points, double divisor) {
        boolean first = true;
        for (Point p : points) {
            if (!(Double.isFinite(p.tpsCi()) && p.tpsCi() > 0) && !(Double.isFinite(p.latencyCi()) && p.latencyCi() > 0)) continue;
            double x = p.tps() / divisor, dx = Double.isFinite(p.tpsCi()) ? p.tpsCi() / divisor : 0;
            double y = p.latencyUs(), dy = Double.isFinite(p.latencyCi()) ? p.latencyCi() : 0;
            for (int axis = 0; axis < 2; axis++) {
                List<Double> xs = axis == 0 ? List.of(x - dx, x + dx) : List.of(x, x);
                List<Double> ys = axis == 0 ? List.of(y, y) : List.of(y - dy, y + dy);
                XYSeries s = chart.addSeries(first ? CI : "ci " + p.code() + (axis == 0 ? " x" : " y"), xs, ys);
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
                s.setMarker(SeriesMarkers.NONE);
                s.setLineColor(new Color(0x888888));
                s.setLineStyle(new BasicStroke(1f));
                s.setShowInLegend(first);
                first = false;
            }
        }
    }

    private static String kindName(Point p, Point fastest) {
        return switch (p.kind()) {
            case CODE -> "other hybrid codes";
            case ALL_RPC -> "all-rpc (code " + p.code() + ")" + (p == fastest ? ", the best" : "");
            case ALL_ONESIDED -> "all-onesided (code " + p.code() + ")" + (p == fastest ? ", the best" : "");
            case BEST -> "best: code " + p.code() + " (" + p.label() + ")";
        };
    }

    /**
     * Labels the scatter's points without overlaps: the chart is laid out once (axis ranges fixed before), each
     * label then takes the first place around its point (above, below, right, left, the diagonals, then farther)
     * whose box overlaps no label placed before, no marker and stays inside the plot. Points closer than a
     * marker share one label ("47, 39"). Labels are annotations in screen space.
     */
    private static void placeLabels(XYChart chart, List<Point> points, Map<Point, String> labels, double divisor) {
        BufferedImage img = new BufferedImage(chart.getWidth(), chart.getHeight(), BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        chart.paint(g, chart.getWidth(), chart.getHeight());
        FontMetrics fm = g.getFontMetrics(chart.getStyler().getAnnotationTextFont());
        g.dispose();
        double left = chart.getScreenXFromChart(chart.getStyler().getXAxisMin()), right = chart.getScreenXFromChart(chart.getStyler().getXAxisMax());
        double top = chart.getScreenYFromChart(chart.getStyler().getYAxisMax()), bottom = chart.getScreenYFromChart(chart.getStyler().getYAxisMin());
        Rectangle2D plot = new Rectangle2D.Double(left, top, right - left, bottom - top);
        double r = chart.getStyler().getMarkerSize() / 2.0 + 1;
        List<Rectangle2D> taken = new ArrayList<>();
        Map<Point, double[]> at = new LinkedHashMap<>();
        for (Point p : points) {
            double[] xy = {chart.getScreenXFromChart(p.tps() / divisor), chart.getScreenYFromChart(p.latencyUs())};
            at.put(p, xy);
            taken.add(new Rectangle2D.Double(xy[0] - r, xy[1] - r, 2 * r, 2 * r));
        }
        // points within a marker of each other share a label
        List<Point> order = new ArrayList<>(labels.keySet());
        Map<Point, String> text = new LinkedHashMap<>();
        for (Point p : order) {
            Point host = null;
            for (Point q : text.keySet()) {
                if (Math.hypot(at.get(p)[0] - at.get(q)[0], at.get(p)[1] - at.get(q)[1]) < 2 * r) host = q;
            }
            if (host != null) text.put(host, text.get(host) + ", " + labels.get(p));
            else text.put(p, labels.get(p));
        }
        int h = fm.getAscent() + fm.getDescent();
        for (Map.Entry<Point, String> e : text.entrySet()) {
            double[] xy = at.get(e.getKey());
            int w = fm.stringWidth(e.getValue());
            Rectangle2D chosen = null;
            for (int far = 1; far <= 6 && chosen == null; far++) {
                double dy = r + 2 + h / 2.0 + (far - 1) * (h + 2), dx = r + 3 + w / 2.0 + (far - 1) * 12;
                double[][] offsets = {{0, -dy}, {0, dy}, {dx, 0}, {-dx, 0}, {dx, -dy}, {-dx, -dy}, {dx, dy}, {-dx, dy}};
                for (double[] o : offsets) {
                    Rectangle2D box = new Rectangle2D.Double(xy[0] + o[0] - w / 2.0 - 1, xy[1] + o[1] - h / 2.0 - 1, w + 2, h + 2);
                    if (!plot.contains(box)) continue;
                    boolean free = true;
                    for (Rectangle2D t : taken) free &= !t.intersects(box);
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
    public static Map<Point, String> labels(List<Point> points) {
        List<Point> finite = new ArrayList<>();
        for (Point p : points) if (Double.isFinite(p.tps()) && Double.isFinite(p.latencyUs())) finite.add(p);
        List<Point> byTps = new ArrayList<>(finite);
        byTps.sort((a, b) -> Double.compare(b.tps(), a.tps()));
        Set<Point> chosen = new LinkedHashSet<>();
        for (Point p : finite) if (p.kind() == Kind.ALL_RPC || p.kind() == Kind.ALL_ONESIDED) chosen.add(p);
        chosen.addAll(byTps.subList(0, Math.min(3, byTps.size())));
        chosen.addAll(paretoFront(finite));
        Map<Point, String> out = new LinkedHashMap<>();
        for (Point p : chosen) {
            out.put(p, p.kind() == Kind.ALL_RPC ? "all-rpc" : p.kind() == Kind.ALL_ONESIDED ? "all-onesided" : Integer.toString(p.code()));
        }
        return out;
    }

    /**
     * The Pareto front of latency against throughput, by throughput ascending: the points no other point beats
     * on both (more throughput and no more latency, or less latency and no less throughput).
     */
    public static List<Point> paretoFront(List<Point> points) {
        List<Point> sorted = new ArrayList<>(points);
        // fastest first; among equal throughput the lowest latency first
        sorted.sort((a, b) -> a.tps() != b.tps() ? Double.compare(b.tps(), a.tps()) : Double.compare(a.latencyUs(), b.latencyUs()));
        List<Point> front = new ArrayList<>();
        double bestLatency = Double.POSITIVE_INFINITY;
        for (Point p : sorted) {
            if (p.latencyUs() < bestLatency) {
                front.add(p);
                bestLatency = p.latencyUs();
            }
        }
        Collections.reverse(front);
        return front;
    }
}
