package org.rccj.results;

import org.rccj.framework.run.Config;
import static org.rccj.results.Figures.BREAKDOWN;
import static org.rccj.results.Figures.MAX_BARS;
import static org.rccj.results.Figures.MAX_SERIES;
import static org.rccj.results.Figures.STAGE_P99;
import static org.rccj.results.Figures.SWEEP_LATENCY;
import static org.rccj.results.Figures.SWEEP_P99;
import static org.rccj.results.Figures.SWEEP_THROUGHPUT;
import static org.rccj.results.Figures.WARN_MARK;
import static org.rccj.results.Figures.finite;
import static org.rccj.results.Figures.hasColumnsFor;
import static org.rccj.results.Figures.maxTps;
import static org.rccj.results.Figures.perTxn;
import static org.rccj.results.Figures.perTxnAxis;
import static org.rccj.results.Figures.runsIn;
import static org.rccj.results.Figures.stageColumns;
import static org.rccj.results.Figures.warnNote;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rccj.framework.api.Stage;
import org.rccj.results.Figures.Figure;

/**
 * The figures of a sweep's sweep.csv: throughput, mean and p99 latency against the first varied key (lines for a
 * number, grouped bars for a category such as the protocol; 95% CI with repeats), in panels by protocol (else
 * workload, else another varied key) past {@value Figures#MAX_SERIES} series; and a stage bar and the stage p99
 * of every point.
 */
final class SweepFigures {
    private SweepFigures() {}

    /** The charts of a sweep's sweep.csv; {@code dir} (may be null) holds its run directories. */
    static List<Figure> of(CsvTable t, String experiment, String prefix, Path dir) throws IOException {
        if (t.rows().isEmpty()) throw new IOException("sweep.csv has no rows");
        List<String> keys = new ArrayList<>(t.keyColumns());
        keys.remove("point");
        if (keys.isEmpty()) throw new IOException("sweep.csv has no varied keys (no columns before 'runs')");
        List<String> varying = new ArrayList<>();
        for (String k : keys) if (distinct(t, k).size() > 1) varying.add(k);
        String x = null;
        for (String k : varying) if (!isMode(k) && numeric(t, k)) { x = k; break; }
        if (x == null) for (String k : varying) if (!isMode(k)) { x = k; break; }
        if (x == null) x = varying.isEmpty() ? keys.get(0) : varying.get(0);
        boolean numericX = !isMode(x) && numeric(t, x); // hybrid codes are categories, however numeric
        List<String> categories = numericX ? null : new ArrayList<>(distinct(t, x));

        // warnings by point (the directory name without ",seed=S")
        Set<String> warnedPoints = new LinkedHashSet<>();
        for (RunMetrics m : runsIn(dir)) if (m.warned()) warnedPoints.add(m.dir().getFileName().toString().replaceFirst(",seed=-?[0-9]+$", ""));
        boolean[] warned = new boolean[t.rows().size()];
        boolean anyWarned = false;
        for (int r = 0; r < t.rows().size(); r++) {
            warned[r] = t.column("point") >= 0 && warnedPoints.contains(t.get(r, "point"));
            anyWarned |= warned[r];
        }

        List<String> labelKeys = new ArrayList<>();
        for (String k : List.of(Config.PROTOCOL.key(), Config.HYBRID.key())) if (keys.contains(k) && !k.equals(x)) labelKeys.add(k);
        for (String k : keys) if (!k.equals(x) && !isMode(k) && varying.contains(k)) labelKeys.add(k);
        Map<String, List<Integer>> series = new LinkedHashMap<>();
        for (int r = 0; r < t.rows().size(); r++) series.computeIfAbsent(label(t, r, labelKeys, experiment), l -> new ArrayList<>()).add(r);
        // more series than a chart shows well: a panel per protocol (else workload, else the first other varied key)
        String panelKey = null;
        if (series.size() > MAX_SERIES) panelKey = panelKey(t, labelKeys, varying);
        List<String> seriesKeys = new ArrayList<>(labelKeys);
        if (panelKey != null) seriesKeys.remove(panelKey);

        Plots.RateUnit unit = Plots.RateUnit.of(maxTps(t));
        boolean ci = t.column("throughput_tps_ci95") >= 0;
        String ciNote = ci ? " (mean, 95% CI)" : "";
        List<Figure> figs = new ArrayList<>();
        // a category (hybrid code, else protocol) varied with a number of few values (coroutines=1,8): the categories
        // as grouped bars, the number as the bars of each group (a panel per other varied key), as a reviewer reads it
        String cat = varying.contains(Config.HYBRID.key()) ? Config.HYBRID.key() : varying.contains(Config.PROTOCOL.key()) ? Config.PROTOCOL.key() : null;
        // (lines when the number has more values than that and the categories fit a chart as lines: a trend to read)
        int nx = distinct(t, x).size();
        if (cat != null && numericX && (nx <= 3 || (distinct(t, cat).size() > MAX_SERIES && nx <= MAX_SERIES))) {
            String other = null;
            for (String k : varying) if (!k.equals(cat) && !k.equals(x)) { other = k; break; }
            String how = " [bars: " + (cat.equals(Config.HYBRID.key()) ? "hybrid code" : cat) + " on the axis, a bar per " + shortKey(x) + " value"
                    + (other == null ? "" : ", a panel per " + shortKey(other)) + "]";
            String wnote = warnNote(anyWarned);
            List<String> cats = new ArrayList<>(distinct(t, cat));
            String catTitle = cat.equals(Config.HYBRID.key()) ? "hybrid code (one-sided stages)" : cat;
            figs.add(groupedFigure(t, prefix + SWEEP_THROUGHPUT, "Throughput: " + experiment + ciNote + wnote + how, cat, catTitle, cats, x, other,
                    "throughput (" + unit.label() + ")", "throughput_tps", unit.divisor(), warned));
            figs.add(groupedFigure(t, prefix + SWEEP_LATENCY, "Latency: " + experiment + ciNote + wnote + how, cat, catTitle, cats, x, other,
                    "latency, mean (us)", "latency_mean_us", 1, warned));
            if (t.column("latency_p99_us") >= 0) {
                figs.add(groupedFigure(t, prefix + SWEEP_P99, "99th-percentile latency: " + experiment + ciNote + wnote + how, cat, catTitle, cats,
                        x, other, "latency, p99 (us)", "latency_p99_us", 1, warned));
            }
        } else {
            String note = anyWarned && numericX ? " [x: " + Plots.WARNED + "]" : warnNote(anyWarned);
            figs.add(metricFigure(t, prefix + SWEEP_THROUGHPUT, "Throughput vs " + x + ": " + experiment + ciNote + note, x,
                    "throughput (" + unit.label() + ")", "throughput_tps", unit.divisor(), categories, panelKey, seriesKeys, experiment, warned));
            figs.add(metricFigure(t, prefix + SWEEP_LATENCY, "Latency vs " + x + ": " + experiment + ciNote + note, x,
                    "latency, mean (us)", "latency_mean_us", 1, categories, panelKey, seriesKeys, experiment, warned));
            if (t.column("latency_p99_us") >= 0) {
                figs.add(metricFigure(t, prefix + SWEEP_P99, "99th-percentile latency vs " + x + ": " + experiment + ciNote + note, x,
                        "latency, p99 (us)", "latency_p99_us", 1, categories, panelKey, seriesKeys, experiment, warned));
            }
        }

        List<String> stages = stageColumns(t);
        List<String> bars = new ArrayList<>(), panelOf = new ArrayList<>();
        String barPanelKey = t.rows().size() > MAX_BARS ? (panelKey != null ? panelKey : panelKey(t, labelKeys, varying)) : null;
        double[][] us = new double[t.rows().size()][stages.size()], p99 = new double[t.rows().size()][stages.size()];
        for (int r = 0; r < t.rows().size(); r++) {
            bars.add(pointLabel(t, r, keys, varying, barPanelKey, warned[r]));
            panelOf.add(panelName(t, r, barPanelKey));
            for (int s = 0; s < stages.size(); s++) {
                us[r][s] = perTxn(t, r, stages.get(s));
                p99[r][s] = t.number(r, stages.get(s) + "_p99_us");
            }
        }
        String barNote = warnNote(anyWarned);
        String xTitle = barPanelKey == null ? "protocol, hybrid code and varied values" : "hybrid code and varied values";
        OutsideStages.Extended ext = OutsideStages.ofTable(t, stages, us);
        String yTitle = ext.stages().size() > stages.size() ? Figures.BAR_IS_LATENCY_AXIS : perTxnAxis(t);
        figs.add(Panels.stageFigure(prefix + BREAKDOWN, "Stage time per committed transaction: " + experiment + barNote + ext.note(), xTitle,
                yTitle, bars, panelOf, ext.stages(), ext.values(), true, Figures.passiveAck(runsIn(dir))));
        if (hasColumnsFor(t, stages, "_p99_us")) {
            // a panel per protocol (else the panel key) whenever there are more points than a chart shows well
            String p99Key = t.rows().size() > MAX_SERIES ? (panelKey != null ? panelKey : panelKey(t, labelKeys, varying)) : null;
            List<String> names = new ArrayList<>(), panels = new ArrayList<>();
            for (int r = 0; r < t.rows().size(); r++) {
                names.add(pointLabel(t, r, keys, varying, p99Key, warned[r]));
                panels.add(panelName(t, r, p99Key));
            }
            Figure f = Panels.stageP99Figure(prefix + STAGE_P99, "Stage latency, 99th percentile: " + experiment + barNote, names, panels, stages, p99);
            if (f != null) figs.add(f);
        }
        return figs;
    }

    /** A sweep metric against x: lines (numeric x) or grouped bars (categories), in panels when {@code panelKey} is set. */
    private static Figure metricFigure(CsvTable t, String base, String title, String x, String yTitle, String column, double divisor,
                                       List<String> categories, String panelKey, List<String> seriesKeys, String experiment,
                                       boolean[] warned) {
        boolean ci = t.column(column + "_ci95") >= 0;
        // panel -> series -> rows
        Map<String, Map<String, List<Integer>>> panels = new LinkedHashMap<>();
        List<String> seriesNames = new ArrayList<>();
        for (int r = 0; r < t.rows().size(); r++) {
            String panel = panelName(t, r, panelKey);
            String s = label(t, r, seriesKeys, panelKey == null ? experiment : "all");
            panels.computeIfAbsent(panel, p -> new LinkedHashMap<>()).computeIfAbsent(s, k -> new ArrayList<>()).add(r);
            if (!seriesNames.contains(s)) seriesNames.add(s);
        }
        Map<String, Color> colours = ChartStyle.seriesColours(seriesNames);
        List<Chart<?, ?>> charts = new ArrayList<>();
        double yMax = 0;
        for (Map.Entry<String, Map<String, List<Integer>>> p : panels.entrySet()) {
            String chartTitle = panelKey == null ? title : p.getKey();
            if (categories == null) {
                List<Plots.Line> lines = new ArrayList<>();
                for (Map.Entry<String, List<Integer>> e : p.getValue().entrySet()) {
                    List<Integer> rows = new ArrayList<>(e.getValue());
                    rows.sort((a, b) -> Double.compare(t.number(a, x), t.number(b, x)));
                    List<Double> xv = new ArrayList<>(), yv = new ArrayList<>(), ev = new ArrayList<>();
                    List<Boolean> wv = new ArrayList<>();
                    for (int r : rows) {
                        xv.add(t.number(r, x));
                        yv.add(t.number(r, column) / divisor);
                        ev.add(finite(t.number(r, column + "_ci95")) / divisor);
                        wv.add(warned[r]);
                        yMax = Math.max(yMax, finite(t.number(r, column) / divisor) + finite(t.number(r, column + "_ci95") / divisor));
                    }
                    lines.add(new Plots.Line(e.getKey(), xv, yv, ci ? ev : null, wv));
                }
                charts.add(Plots.linesChart(chartTitle, x, yTitle, lines, null, colours));
            } else {
                List<String> cats = new ArrayList<>();
                for (String c : categories) cats.add(categoryLabel(x, c));
                for (int r = 0; r < t.rows().size(); r++) {
                    if (warned[r] && p.getKey().equals(panelName(t, r, panelKey))) {
                        int i = categories.indexOf(t.get(r, x));
                        if (i >= 0 && !cats.get(i).endsWith(WARN_MARK)) cats.set(i, cats.get(i) + WARN_MARK);
                    }
                }
                List<Plots.Bars> bars = new ArrayList<>();
                for (Map.Entry<String, List<Integer>> e : p.getValue().entrySet()) {
                    List<Double> vs = new ArrayList<>(), es = new ArrayList<>();
                    for (String c : categories) {
                        double v = Double.NaN, err = Double.NaN;
                        for (int r : e.getValue()) {
                            if (t.get(r, x).equals(c)) {
                                v = t.number(r, column) / divisor;
                                err = finite(t.number(r, column + "_ci95")) / divisor;
                            }
                        }
                        vs.add(v);
                        es.add(err);
                        yMax = Math.max(yMax, finite(v) + finite(err));
                    }
                    bars.add(new Plots.Bars(e.getKey(), vs, ci ? es : null));
                }
                charts.add(Plots.groupedBarsChart(chartTitle, x, yTitle, cats, bars, colours));
            }
        }
        if (panelKey == null) return new Figure(base, charts.get(0));
        List<Grid.LegendEntry> legend = new ArrayList<>();
        for (String s : seriesNames) legend.add(new Grid.LegendEntry(s, colours.get(s), categories != null));
        if (categories == null && anyTrue(warned)) legend.add(new Grid.LegendEntry("x: " + Plots.WARNED, ChartStyle.WARN_COLOUR, false));
        return Panels.grid(base, title, charts, yMax, legend);
    }

    /**
     * Grouped bars: {@code cats} (values of {@code cat}) on the axis, one bar per value of the number {@code num} in
     * each group (95% CI with repeats), a panel per value of {@code panelKey} (may be null); panels share the y range.
     */
    private static Figure groupedFigure(CsvTable t, String base, String title, String cat, String catTitle, List<String> cats, String num,
                                        String panelKey, String yTitle, String column, double divisor, boolean[] warned) {
        boolean ci = t.column(column + "_ci95") >= 0;
        List<String> nums = new ArrayList<>(distinct(t, num));
        nums.sort((a, b) -> Double.compare(Double.parseDouble(a), Double.parseDouble(b)));
        List<String> seriesNames = new ArrayList<>();
        for (String n : nums) seriesNames.add(shortKey(num) + "=" + n);
        Map<String, Color> colours = ChartStyle.seriesColours(seriesNames);
        List<String> panels = new ArrayList<>(panelKey == null ? List.of("") : distinct(t, panelKey));
        List<Chart<?, ?>> charts = new ArrayList<>();
        double yMax = 0;
        for (String panel : panels) {
            List<String> labels = new ArrayList<>();
            for (String c : cats) labels.add(categoryLabel(cat, c));
            List<Plots.Bars> bars = new ArrayList<>();
            for (int i = 0; i < nums.size(); i++) {
                List<Double> vs = new ArrayList<>(), es = new ArrayList<>();
                for (int k = 0; k < cats.size(); k++) {
                    double v = Double.NaN, err = Double.NaN;
                    for (int r = 0; r < t.rows().size(); r++) {
                        if (!t.get(r, cat).equals(cats.get(k)) || !t.get(r, num).equals(nums.get(i))) continue;
                        if (panelKey != null && !t.get(r, panelKey).equals(panel)) continue;
                        v = t.number(r, column) / divisor;
                        err = finite(t.number(r, column + "_ci95")) / divisor;
                        if (warned[r] && !labels.get(k).endsWith(WARN_MARK)) labels.set(k, labels.get(k) + WARN_MARK);
                    }
                    vs.add(v);
                    es.add(err);
                    yMax = Math.max(yMax, finite(v) + finite(err));
                }
                bars.add(new Plots.Bars(seriesNames.get(i), vs, ci ? es : null));
            }
            String chartTitle = panelKey == null ? title : panelName(t, firstRow(t, panelKey, panel), panelKey);
            charts.add(Plots.groupedBarsChart(chartTitle, catTitle, yTitle, labels, bars, colours));
        }
        if (panelKey == null) return new Figure(base, charts.get(0));
        List<Grid.LegendEntry> legend = new ArrayList<>();
        for (String s : seriesNames) legend.add(new Grid.LegendEntry(s, colours.get(s), true));
        return Panels.grid(base, title, charts, yMax, legend);
    }

    private static int firstRow(CsvTable t, String key, String value) {
        for (int r = 0; r < t.rows().size(); r++) if (t.get(r, key).equals(value)) return r;
        return 0;
    }

    /** A category's tick label: a numeric hybrid code with its one-sided stages ("6 (READ+LOG)", "0 (all-rpc)"). */
    static String categoryLabel(String key, String value) {
        if (!key.equals(Config.HYBRID.key()) || !value.matches("[0-9]+")) return value;
        int code = Integer.parseInt(value);
        List<String> names = new ArrayList<>();
        for (Stage s : Stage.fromMask(code)) names.add(s.name());
        return value + " (" + (names.isEmpty() ? "all-rpc" : String.join("+", names)) + ")";
    }

    private static String panelKey(CsvTable t, List<String> labelKeys, List<String> varying) {
        if (labelKeys.contains(Config.PROTOCOL.key()) && varying.contains(Config.PROTOCOL.key())) return Config.PROTOCOL.key();
        for (String k : labelKeys) if (k.startsWith("workload") && varying.contains(k)) return k;
        for (String k : labelKeys) if (varying.contains(k)) return k;
        return null;
    }

    /** Row {@code r}'s panel: its value of {@code key} ("" for a null key), named by the key unless a mode or workload. */
    private static String panelName(CsvTable t, int r, String key) {
        if (key == null) return "";
        String value = t.get(r, key);
        return isMode(key) || key.equals("workload.name") ? value : shortKey(key) + "=" + value;
    }

    /**
     * A point's label: protocol, hybrid mode and the other varied values ("occ all-rpc coroutines=1"), less
     * {@code panelKey} (may be null), which its panel names; the row's number when nothing varies; " (!)" when
     * its run has warnings.
     */
    private static String pointLabel(CsvTable t, int r, List<String> keys, List<String> varying, String panelKey, boolean warned) {
        List<String> parts = new ArrayList<>();
        for (String k : List.of(Config.PROTOCOL.key(), Config.HYBRID.key())) {
            // a mode all points share is said once (the title, the panel), not on every bar; unless nothing else varies
            if (keys.contains(k) && !k.equals(panelKey) && (varying.contains(k) || varying.isEmpty())) parts.add(categoryLabel(k, t.get(r, k)));
        }
        for (String k : keys) if (!isMode(k) && varying.contains(k) && !k.equals(panelKey)) parts.add(shortKey(k) + "=" + t.get(r, k));
        return (parts.isEmpty() ? Integer.toString(r + 1) : String.join(" ", parts)) + (warned ? WARN_MARK : "");
    }

    private static String label(CsvTable t, int r, List<String> keys, String fallback) {
        List<String> parts = new ArrayList<>();
        for (String k : keys) parts.add(isMode(k) ? t.get(r, k) : shortKey(k) + "=" + t.get(r, k));
        return parts.isEmpty() ? fallback : String.join(" ", parts);
    }

    private static boolean anyTrue(boolean[] bs) {
        for (boolean b : bs) if (b) return true;
        return false;
    }

    private static boolean isMode(String key) { return key.equals(Config.PROTOCOL.key()) || key.equals(Config.HYBRID.key()); }

    private static String shortKey(String k) {
        int dot = k.lastIndexOf('.');
        return dot < 0 ? k : k.substring(dot + 1);
    }

    private static Set<String> distinct(CsvTable t, String col) {
        Set<String> s = new LinkedHashSet<>();
        for (int r = 0; r < t.rows().size(); r++) s.add(t.get(r, col));
        return s;
    }

    private static boolean numeric(CsvTable t, String col) {
        for (int r = 0; r < t.rows().size(); r++) if (!Double.isFinite(t.number(r, col))) return false;
        return true;
    }
}
