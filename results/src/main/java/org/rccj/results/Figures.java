package org.rccj.results;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.HdrHistogram.HistogramIterationValue;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rccj.framework.spi.Stage;

/**
 * Which charts RCC-J draws from which results (the data side of {@link Plots}):
 * <ul>
 * <li>run directories: {@code stage-breakdown} (one stacked bar per run, labelled protocol and hybrid code),
 *     {@code stage-p99} (each stage's 99th percentile), {@code throughput-over-time} (timeline.csv: is the
 *     warm-up long enough?) and {@code latency-cdf} (latency.hlog);
 * <li>an enumeration's {@code hybrid.csv}: {@code hybrid-scatter} (latency against throughput; the pure codes,
 *     the three fastest and the Pareto front labelled), {@code stage-breakdown} (one bar per code, panels of at
 *     most 32 codes), {@code stage-p99} and {@code latency-cdf} of the pure and fastest codes;
 * <li>several enumerations: {@code protocols}, RCC Fig. 14's comparison (every protocol: all-rpc, all-onesided
 *     and its best hybrid code; throughput and latency; a row per workload);
 * <li>a sweep's {@code sweep.csv}: {@code sweep-throughput}, {@code sweep-latency} and {@code sweep-p99} against
 *     the first varied key (lines for a numeric key, grouped bars for a category such as the protocol; 95% CI
 *     with repeats), {@code stage-breakdown} and {@code stage-p99} (a bar per point).
 * </ul>
 * Busy figures become panels under one title and legend: more than six lines or bar series split by protocol
 * (else by workload, else by another varied key), more than {@value #MAX_BARS} bars likewise; panels share their
 * y range. Points whose summary.json lists warnings are marked: a red cross on lines and scatters, " (!)" after
 * a bar's label.
 */
public final class Figures {
    /** File base names. */
    public static final String BREAKDOWN = "stage-breakdown", SCATTER = "hybrid-scatter",
            SWEEP_THROUGHPUT = "sweep-throughput", SWEEP_LATENCY = "sweep-latency", SWEEP_P99 = "sweep-p99",
            STAGE_P99 = "stage-p99", TIMELINE = "throughput-over-time", CDF = "latency-cdf", PROTOCOLS = "protocols";

    /** Series a chart holds before it is split into panels. */
    static final int MAX_SERIES = 6;
    /** Bars a chart holds before it is split into panels. */
    static final int MAX_BARS = 32;
    /** Appended to the label of a bar whose run has warnings. */
    public static final String WARN_MARK = " (!)";

    /** A chart, or a grid of panels, and the base name of its files. */
    public record Figure(String base, Chart<?, ?> chart, Plots.Grid grid) {
        public Figure(String base, Chart<?, ?> chart) { this(base, chart, null); }
        public Figure(String base, Plots.Grid grid) { this(base, null, grid); }

        /** The charts drawn: the chart, or the grid's panels. */
        public List<Chart<?, ?>> charts() { return chart != null ? List.of(chart) : grid.panels(); }

        /** The title: the chart's, or the grid's. */
        public String title() { return chart != null ? chart.getTitle() : grid.title(); }
    }

    private Figures() {}

    /** Writes each figure as BASE.png and BASE.svg in {@code out}. */
    public static List<Plots.Saved> save(List<Figure> figures, Path out) throws IOException {
        List<Plots.Saved> saved = new ArrayList<>();
        for (Figure f : figures) saved.add(f.chart() != null ? Plots.save(f.chart(), out, f.base()) : Plots.save(f.grid(), out, f.base()));
        return saved;
    }

    public static List<Plots.Saved> ofRuns(List<RunMetrics> runs, Path out, String prefix) throws IOException {
        return save(runs(runs, prefix), out);
    }

    public static List<Plots.Saved> ofHybridTable(CsvTable t, Path dir, Path out, String prefix) throws IOException {
        return save(hybridTable(t, prefix, dir), out);
    }

    public static List<Plots.Saved> ofSweepTable(CsvTable t, String experiment, Path dir, Path out, String prefix) throws IOException {
        return save(sweepTable(t, experiment, prefix, dir), out);
    }

    // ------------------------------------------------------------------ run directories

    /** The figures of run directories: breakdown, stage p99, throughput over time, latency CDF. */
    public static List<Figure> runs(List<RunMetrics> runs, String prefix) throws IOException {
        List<String> labels = new ArrayList<>();
        Set<String> stageSet = new LinkedHashSet<>();
        Set<String> workloads = new LinkedHashSet<>();
        for (RunMetrics m : runs) {
            stageSet.addAll(m.stages().keySet());
            workloads.add(m.workload());
        }
        List<String> stages = executeLast(stageSet);
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (RunMetrics m : runs) {
            String label = m.protocol() + " " + m.config().path("hybrid").asText(Integer.toString(m.code()));
            seen.merge(label, 1, Integer::sum);
            labels.add(label);
        }
        boolean anyWarned = false;
        for (int i = 0; i < labels.size(); i++) {
            if (seen.get(labels.get(i)) > 1) labels.set(i, labels.get(i) + " [" + runs.get(i).dir().getFileName() + "]");
            if (runs.get(i).warned()) {
                labels.set(i, labels.get(i) + WARN_MARK);
                anyWarned = true;
            }
        }
        double[][] us = new double[runs.size()][stages.size()], p99 = new double[runs.size()][stages.size()];
        for (int i = 0; i < runs.size(); i++) {
            for (int s = 0; s < stages.size(); s++) {
                RunMetrics.StageFigures f = runs.get(i).stages().get(stages.get(s));
                us[i][s] = f == null ? Double.NaN : f.perCommitUs(runs.get(i).commits());
                p99[i][s] = f == null ? Double.NaN : f.p99Us();
            }
        }
        String on = workloads.size() == 1 ? " on " + workloads.iterator().next() : "";
        String note = anyWarned ? " [" + WARN_MARK.trim() + ": " + Plots.WARNED + "]" : "";
        List<String> panelOf = new ArrayList<>();
        for (RunMetrics m : runs) panelOf.add(m.protocol());
        List<Figure> figs = new ArrayList<>();
        figs.add(stageFigure(prefix + BREAKDOWN, "Stage time per committed transaction" + on + note, "protocol and hybrid code",
                PER_TXN_AXIS, labels, panelOf, stages, us, true));
        Figure p99Figure = stageP99Figure(prefix + STAGE_P99, "Stage latency, 99th percentile" + on + note, labels, panelOf, stages, p99);
        if (p99Figure != null) figs.add(p99Figure);
        Figure timeline = timeline(runs, labels, prefix, on);
        if (timeline != null) figs.add(timeline);
        Map<String, Path> cdfRuns = new LinkedHashMap<>();
        for (int i = 0; i < runs.size(); i++) cdfRuns.put(labels.get(i), runs.get(i).dir());
        Figure cdf = latencyCdf(prefix + CDF, "Latency CDF of committed transactions" + on, cdfRuns);
        if (cdf != null) figs.add(cdf);
        return figs;
    }

    /** Throughput over time from each run's timeline.csv (null when no run has one). */
    private static Figure timeline(List<RunMetrics> runs, List<String> labels, String prefix, String on) throws IOException {
        List<Plots.Line> lines = new ArrayList<>();
        List<String> panels = new ArrayList<>();
        double max = 0;
        List<CsvTable> tables = new ArrayList<>();
        for (RunMetrics m : runs) {
            Path f = m.dir().resolve(TimelineCsv.FILE_NAME);
            CsvTable t = Files.isRegularFile(f) ? CsvTable.read(f) : null;
            tables.add(t);
            if (t != null) for (int r = 0; r < t.rows().size(); r++) max = Math.max(max, finite(t.number(r, "throughput_tps")));
        }
        Plots.RateUnit unit = Plots.RateUnit.of(max);
        for (int i = 0; i < runs.size(); i++) {
            CsvTable t = tables.get(i);
            if (t == null || t.rows().isEmpty()) continue;
            List<Double> x = new ArrayList<>(), y = new ArrayList<>();
            for (int r = 0; r < t.rows().size(); r++) {
                x.add(t.number(r, "t_ms"));
                y.add(t.number(r, "throughput_tps") / unit.divisor());
            }
            lines.add(new Plots.Line(labels.get(i), x, y, null));
            panels.add(runs.get(i).protocol());
        }
        if (lines.isEmpty()) return null;
        return linesFigure(prefix + TIMELINE, "Throughput over time" + on,
                "time in the measured window (ms); a rising start means the warm-up was too short", "throughput (" + unit.label() + ")", lines, panels, null, false);
    }

    /**
     * Latency CDFs from latency.hlog files (label to run directory; directories without the file are left out):
     * the x axis ends at the largest p99.9 so the tails do not squeeze the body. Null when no file is found.
     */
    static Figure latencyCdf(String base, String title, Map<String, Path> runDirs) throws IOException {
        List<Plots.Line> lines = new ArrayList<>();
        double xMax = 0, underOneUs = 0;
        for (Map.Entry<String, Path> e : runDirs.entrySet()) {
            org.HdrHistogram.Histogram h = LatencyLog.transactions(e.getValue());
            if (h == null || h.getTotalCount() == 0) continue;
            // a step function over the recorded buckets: flat between them, vertical at each
            List<Double> x = new ArrayList<>(), y = new ArrayList<>();
            double total = h.getTotalCount(), before = 0;
            for (HistogramIterationValue v : h.recordedValues()) {
                double at = h.highestEquivalentValue(v.getValueIteratedTo()) / 1e3;
                x.add(at);
                y.add(before / total);
                before = v.getTotalCountToThisValue();
                x.add(at);
                y.add(before / total);
            }
            xMax = Math.max(xMax, h.getValueAtPercentile(99.9) / 1e3);
            underOneUs = Math.max(underOneUs, (double) h.getCountBetweenValues(0, 999) / h.getTotalCount());
            lines.add(new Plots.Line(e.getKey(), x, y, null));
        }
        if (lines.isEmpty()) return null;
        // transactions that finish in well under a network round trip (e.g. touching only tuples served by the local CPU)
        // make a step at 0: say what it is
        String step = underOneUs >= 0.005 ? String.format(java.util.Locale.ROOT, "; the step at 0: up to %.1f%% finish in under 1 us",
                100 * underOneUs) : "";
        Figure f = linesFigure(base, title, "latency (us; axis ends at the largest p99.9" + step + ")", "share of transactions <= latency",
                lines, null, null, false);
        for (Chart<?, ?> c : f.charts()) {
            XYChart xy = (XYChart) c;
            xy.getStyler().setXAxisMax(xMax * 1.02);
            xy.getStyler().setXAxisMin(0.0);
            xy.getStyler().setYAxisMax(1.0);
            for (org.knowm.xchart.XYSeries s : xy.getSeriesMap().values()) s.setMarker(org.knowm.xchart.style.markers.SeriesMarkers.NONE);
            xy.getStyler().setxAxisTickLabelsFormattingFunction(null);
            xy.getStyler().setXAxisDecimalPattern("#,##0.#");
            xy.getStyler().setYAxisDecimalPattern("0.0#");
        }
        return f;
    }

    // ------------------------------------------------------------------ enumerations

    /** The charts of an enumeration's hybrid.csv (no run directories: nothing is marked, no CDF). */
    public static List<Figure> hybridTable(CsvTable t, String prefix) throws IOException {
        return hybridTable(t, prefix, null);
    }

    /** The charts of an enumeration's hybrid.csv; {@code dir} (may be null) holds its run directories. */
    public static List<Figure> hybridTable(CsvTable t, String prefix, Path dir) throws IOException {
        if (t.rows().isEmpty()) throw new IOException("hybrid.csv has no rows");
        Pure pure = Pure.of(t);
        String what = pure.what();
        List<String> stages = stageColumns(t);
        Map<Integer, List<RunMetrics>> runsByCode = new TreeMap<>();
        for (RunMetrics m : runsIn(dir)) runsByCode.computeIfAbsent(m.code(), c -> new ArrayList<>()).add(m);

        List<Plots.ScatterPoint> points = new ArrayList<>();
        List<String> bars = new ArrayList<>();
        double[][] us = new double[t.rows().size()][stages.size()];
        boolean anyWarned = false;
        for (int r = 0; r < t.rows().size(); r++) {
            int code = Integer.parseInt(t.get(r, "code"));
            Plots.Kind kind = code == 0 ? Plots.Kind.ALL_RPC : code == pure.allOneSided() ? Plots.Kind.ALL_ONESIDED
                    : r == pure.best() ? Plots.Kind.BEST : Plots.Kind.CODE;
            boolean warned = warned(runsByCode.get(code));
            anyWarned |= warned;
            points.add(new Plots.ScatterPoint(code, t.get(r, "onesided"), t.number(r, "throughput_tps"), t.number(r, "latency_mean_us"), kind, warned));
            bars.add(code + (warned ? WARN_MARK : ""));
            for (int s = 0; s < stages.size(); s++) us[r][s] = perTxn(t, r, stages.get(s));
        }
        String note = anyWarned ? " [" + WARN_MARK.trim() + ": " + Plots.WARNED + "]" : "";
        String bits = "codes = sum of the one-sided stages' bits: " + String.join(", ", pure.bitNames());
        List<Figure> figs = new ArrayList<>();
        figs.add(new Figure(prefix + SCATTER, Plots.hybridScatterChart(
                "Hybrid codes of " + what + ": latency vs throughput (" + t.rows().size() + " codes)", points, "throughput", bits)));
        List<String> panelOf = new ArrayList<>();
        for (int r = 0; r < t.rows().size(); r++) {
            // named by the codes it shows (rows are sorted by code)
            int first = r / MAX_BARS * MAX_BARS, last = Math.min(t.rows().size(), first + MAX_BARS) - 1;
            panelOf.add("codes " + t.get(first, "code") + "-" + t.get(last, "code"));
        }
        figs.add(stageFigure(prefix + BREAKDOWN, "Stage time per committed transaction of " + what + " by hybrid code" + note,
                "hybrid code (" + bits + ")", perTxnAxis(t), bars, panelOf, stages, us, true));

        // the codes worth a closer look: pure, the three fastest
        List<Integer> picked = pickedRows(t, pure);
        if (hasColumnsFor(t, stages, "_p99_us")) {
            List<String> labels = new ArrayList<>();
            double[][] p99 = new double[picked.size()][stages.size()];
            for (int i = 0; i < picked.size(); i++) {
                int r = picked.get(i);
                labels.add(rowLabel(t, r, pure) + (warned(runsByCode.get(Integer.parseInt(t.get(r, "code")))) ? WARN_MARK : ""));
                for (int s = 0; s < stages.size(); s++) p99[i][s] = t.number(r, stages.get(s) + "_p99_us");
            }
            Figure f = stageP99Figure(prefix + STAGE_P99, "Stage latency, 99th percentile, of " + what + note,
                    labels, java.util.Collections.nCopies(labels.size(), ""), stages, p99);
            if (f != null) figs.add(f);
        }
        Map<String, Path> cdfRuns = new LinkedHashMap<>();
        List<RunMetrics> pickedRuns = new ArrayList<>();
        List<String> pickedLabels = new ArrayList<>();
        for (int r : picked) {
            List<RunMetrics> rs = runsByCode.get(Integer.parseInt(t.get(r, "code")));
            if (rs == null || rs.isEmpty()) continue;
            cdfRuns.put(rowLabel(t, r, pure), rs.get(0).dir());
            pickedRuns.add(rs.get(0));
            pickedLabels.add(rowLabel(t, r, pure));
        }
        Figure timeline = timeline(pickedRuns, pickedLabels, prefix, " of " + what + ", first seed");
        if (timeline != null) figs.add(timeline);
        Figure cdf = latencyCdf(prefix + CDF, "Latency CDF of " + what + ", first seed", cdfRuns);
        if (cdf != null) figs.add(cdf);
        return figs;
    }

    /** The pure codes and the best row of a hybrid.csv. */
    private record Pure(String protocol, String workload, int allOneSided, int best, List<String> bitNames) {
        static Pure of(CsvTable t) {
            int allOneSided = 0;
            List<String> bitNames = new ArrayList<>();
            for (String s : stageColumns(t)) {
                Stage st = Stage.byName(s);
                if (st != null) {
                    allOneSided |= st.bit;
                    bitNames.add(st.name() + "=" + st.bit);
                }
            }
            int best = -1;
            double bestTps = Double.NEGATIVE_INFINITY;
            for (int r = 0; r < t.rows().size(); r++) {
                double tps = t.number(r, "throughput_tps");
                if (tps > bestTps) {
                    bestTps = tps;
                    best = r;
                }
            }
            return new Pure(t.get(0, "protocol"), t.get(0, "workload"), allOneSided, best, bitNames);
        }

        String what() { return (protocol == null ? "" : protocol) + (workload == null ? "" : " on " + workload); }

        int row(CsvTable t, int code) {
            for (int r = 0; r < t.rows().size(); r++) if (Integer.parseInt(t.get(r, "code")) == code) return r;
            return -1;
        }
    }

    private static List<Integer> pickedRows(CsvTable t, Pure pure) {
        Set<Integer> rows = new LinkedHashSet<>();
        int rpc = pure.row(t, 0), one = pure.row(t, pure.allOneSided());
        if (rpc >= 0) rows.add(rpc);
        if (one >= 0) rows.add(one);
        List<Integer> byTps = new ArrayList<>();
        for (int r = 0; r < t.rows().size(); r++) byTps.add(r);
        byTps.sort((a, b) -> Double.compare(finite(t.number(b, "throughput_tps")), finite(t.number(a, "throughput_tps"))));
        for (int i = 0; i < Math.min(3, byTps.size()); i++) rows.add(byTps.get(i));
        return new ArrayList<>(rows);
    }

    private static String rowLabel(CsvTable t, int r, Pure pure) {
        int code = Integer.parseInt(t.get(r, "code"));
        if (code == 0) return "all-rpc (0)";
        if (code == pure.allOneSided()) return "all-onesided (" + code + ")";
        return (r == pure.best() ? "best: " : "") + code + " (" + t.get(r, "onesided") + ")";
    }

    /**
     * RCC Fig. 14's comparison from several enumerations: for every protocol its all-rpc, all-onesided and best
     * hybrid code, throughput and mean latency side by side, one row of panels per workload. Null for fewer
     * than one table with both pure codes.
     */
    public static Figure protocols(List<CsvTable> tables, String prefix) {
        return protocols(tables, java.util.Collections.nCopies(tables.size(), null), prefix);
    }

    /**
     * As {@link #protocols(List, String)}; {@code dirs} (entries may be null) hold each table's run directories,
     * whose warnings mark a protocol's label with " (!)" when any of its three runs has some.
     */
    public static Figure protocols(List<CsvTable> tables, List<Path> dirs, String prefix) {
        Map<String, List<CsvTable>> byWorkload = new LinkedHashMap<>();
        Map<CsvTable, Set<Integer>> warnedCodes = new java.util.IdentityHashMap<>();
        boolean anyWarned = false;
        for (int i = 0; i < tables.size(); i++) {
            CsvTable t = tables.get(i);
            if (t.rows().isEmpty()) continue;
            String w = t.get(0, "workload");
            byWorkload.computeIfAbsent(w == null ? "" : w, k -> new ArrayList<>()).add(t);
            Set<Integer> codes = new java.util.HashSet<>();
            for (RunMetrics m : runsIn(dirs.get(i))) if (m.warned()) codes.add(m.code());
            warnedCodes.put(t, codes);
        }
        List<String> modes = List.of("all-rpc", "all-onesided", "best hybrid");
        Map<String, Color> colours = Plots.seriesColours(modes);
        List<Chart<?, ?>> panels = new ArrayList<>();
        double maxTps = 0;
        for (CsvTable t : tables) for (int r = 0; r < t.rows().size(); r++) maxTps = Math.max(maxTps, finite(t.number(r, "throughput_tps")));
        Plots.RateUnit unit = Plots.RateUnit.of(maxTps);
        for (Map.Entry<String, List<CsvTable>> e : byWorkload.entrySet()) {
            List<String> categories = new ArrayList<>();
            List<List<Double>> tps = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            List<List<Double>> lat = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
            for (CsvTable t : e.getValue()) {
                Pure pure = Pure.of(t);
                int[] rows = {pure.row(t, 0), pure.row(t, pure.allOneSided()), pure.best()};
                int bestCode = Integer.parseInt(t.get(pure.best(), "code"));
                boolean warned = false;
                for (int code : List.of(0, pure.allOneSided(), bestCode)) warned |= warnedCodes.get(t).contains(code);
                anyWarned |= warned;
                categories.add(pure.protocol() + " (best: " + (bestCode == 0 ? "all-rpc" : bestCode == pure.allOneSided() ? "all-onesided"
                        : Integer.toString(bestCode)) + ")" + (warned ? WARN_MARK : ""));
                for (int i = 0; i < 3; i++) {
                    tps.get(i).add(rows[i] < 0 ? Double.NaN : t.number(rows[i], "throughput_tps") / unit.divisor());
                    lat.get(i).add(rows[i] < 0 ? Double.NaN : t.number(rows[i], "latency_mean_us"));
                }
            }
            List<Plots.Bars> tb = new ArrayList<>(), lb = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                tb.add(new Plots.Bars(modes.get(i), tps.get(i), null));
                lb.add(new Plots.Bars(modes.get(i), lat.get(i), null));
            }
            String w = e.getKey().isEmpty() ? "" : e.getKey() + ": ";
            panels.add(Plots.groupedBarsChart(w + "throughput", "protocol (best hybrid code)", "throughput (" + unit.label() + ")",
                    categories, tb, colours));
            panels.add(Plots.groupedBarsChart(w + "latency", "protocol (best hybrid code)", "latency, mean (us)", categories, lb, colours));
        }
        if (panels.isEmpty()) return null;
        List<Plots.LegendEntry> legend = new ArrayList<>();
        for (String m : modes) legend.add(new Plots.LegendEntry(m, colours.get(m), true));
        return new Figure(prefix + PROTOCOLS, new Plots.Grid("Protocols: all-rpc, all-onesided and the best hybrid code (RCC Fig. 14)"
                + (anyWarned ? " [" + WARN_MARK.trim() + ": " + Plots.WARNED + "]" : ""), panels, 2, legend));
    }

    // ------------------------------------------------------------------ sweeps

    /** The charts of a sweep's sweep.csv (no run directories: nothing is marked). */
    public static List<Figure> sweepTable(CsvTable t, String experiment, String prefix) throws IOException {
        return sweepTable(t, experiment, prefix, null);
    }

    /** The charts of a sweep's sweep.csv; {@code dir} (may be null) holds its run directories. */
    public static List<Figure> sweepTable(CsvTable t, String experiment, String prefix, Path dir) throws IOException {
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
        for (String k : List.of("protocol", "hybrid")) if (keys.contains(k) && !k.equals(x)) labelKeys.add(k);
        for (String k : keys) if (!k.equals(x) && !isMode(k) && varying.contains(k)) labelKeys.add(k);
        Map<String, List<Integer>> series = new LinkedHashMap<>();
        for (int r = 0; r < t.rows().size(); r++) series.computeIfAbsent(label(t, r, labelKeys, experiment), l -> new ArrayList<>()).add(r);
        // more series than a chart shows well: a panel per protocol (else workload, else the first other varied key)
        String panelKey = null;
        if (series.size() > MAX_SERIES) panelKey = panelKey(t, labelKeys, varying);
        List<String> seriesKeys = new ArrayList<>(labelKeys);
        if (panelKey != null) seriesKeys.remove(panelKey);

        double maxTps = 0;
        for (int r = 0; r < t.rows().size(); r++) maxTps = Math.max(maxTps, finite(t.number(r, "throughput_tps")));
        Plots.RateUnit unit = Plots.RateUnit.of(maxTps);
        boolean ci = t.column("throughput_tps_ci95") >= 0;
        String ciNote = ci ? " (mean, 95% CI)" : "";
        String note = anyWarned ? " [" + (numericX ? "x" : WARN_MARK.trim()) + ": " + Plots.WARNED + "]" : "";
        List<Figure> figs = new ArrayList<>();
        figs.add(metricFigure(t, prefix + SWEEP_THROUGHPUT, "Throughput vs " + x + ": " + experiment + ciNote + note, x,
                "throughput (" + unit.label() + ")", "throughput_tps", unit.divisor(), categories, panelKey, seriesKeys, experiment, warned));
        figs.add(metricFigure(t, prefix + SWEEP_LATENCY, "Latency vs " + x + ": " + experiment + ciNote + note, x,
                "latency, mean (us)", "latency_mean_us", 1, categories, panelKey, seriesKeys, experiment, warned));
        if (t.column("latency_p99_us") >= 0) {
            figs.add(metricFigure(t, prefix + SWEEP_P99, "99th-percentile latency vs " + x + ": " + experiment + ciNote + note, x,
                    "latency, p99 (us)", "latency_p99_us", 1, categories, panelKey, seriesKeys, experiment, warned));
        }

        List<String> stages = stageColumns(t);
        List<String> bars = new ArrayList<>(), panelOf = new ArrayList<>();
        String barPanelKey = t.rows().size() > MAX_BARS ? (panelKey != null ? panelKey : panelKey(t, labelKeys, varying)) : null;
        double[][] us = new double[t.rows().size()][stages.size()], p99 = new double[t.rows().size()][stages.size()];
        for (int r = 0; r < t.rows().size(); r++) {
            // protocol, hybrid mode and the other varied values: "occ all-rpc coroutines=1" (within a panel: less its key)
            List<String> parts = new ArrayList<>();
            for (String k : List.of("protocol", "hybrid")) if (keys.contains(k) && !k.equals(barPanelKey)) parts.add(t.get(r, k));
            for (String k : keys) if (!isMode(k) && varying.contains(k) && !k.equals(barPanelKey)) parts.add(shortKey(k) + "=" + t.get(r, k));
            bars.add((parts.isEmpty() ? Integer.toString(r + 1) : String.join(" ", parts)) + (warned[r] ? WARN_MARK : ""));
            panelOf.add(barPanelKey == null ? "" : panelName(barPanelKey, t.get(r, barPanelKey)));
            for (int s = 0; s < stages.size(); s++) {
                us[r][s] = perTxn(t, r, stages.get(s));
                p99[r][s] = t.number(r, stages.get(s) + "_p99_us");
            }
        }
        String barNote = anyWarned ? " [" + WARN_MARK.trim() + ": " + Plots.WARNED + "]" : "";
        String xTitle = barPanelKey == null ? "protocol, hybrid code and varied values" : "hybrid code and varied values";
        figs.add(stageFigure(prefix + BREAKDOWN, "Stage time per committed transaction: " + experiment + barNote, xTitle,
                perTxnAxis(t), bars, panelOf, stages, us, true));
        if (hasColumnsFor(t, stages, "_p99_us")) {
            // a panel per protocol (else the panel key) whenever there are more points than a chart shows well
            String p99Key = t.rows().size() > MAX_SERIES ? (panelKey != null ? panelKey : panelKey(t, labelKeys, varying)) : null;
            List<String> names = new ArrayList<>(), panels = new ArrayList<>();
            for (int r = 0; r < t.rows().size(); r++) {
                List<String> parts = new ArrayList<>();
                for (String k : List.of("protocol", "hybrid")) if (keys.contains(k) && !k.equals(p99Key)) parts.add(t.get(r, k));
                for (String k : keys) if (!isMode(k) && varying.contains(k) && !k.equals(p99Key)) parts.add(shortKey(k) + "=" + t.get(r, k));
                names.add((parts.isEmpty() ? Integer.toString(r + 1) : String.join(" ", parts)) + (warned[r] ? WARN_MARK : ""));
                panels.add(p99Key == null ? "" : panelName(p99Key, t.get(r, p99Key)));
            }
            Figure f = stageP99Figure(prefix + STAGE_P99, "Stage latency, 99th percentile: " + experiment + barNote, names, panels, stages, p99);
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
            String panel = panelKey == null ? "" : panelName(panelKey, t.get(r, panelKey));
            String s = label(t, r, seriesKeys, panelKey == null ? experiment : "all");
            panels.computeIfAbsent(panel, p -> new LinkedHashMap<>()).computeIfAbsent(s, k -> new ArrayList<>()).add(r);
            if (!seriesNames.contains(s)) seriesNames.add(s);
        }
        Map<String, Color> colours = Plots.seriesColours(seriesNames);
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
                        ev.add(zeroIfNaN(t.number(r, column + "_ci95")) / divisor);
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
                    if (warned[r] && (panelKey == null || p.getKey().equals(panelName(panelKey, t.get(r, panelKey))))) {
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
                                err = zeroIfNaN(t.number(r, column + "_ci95")) / divisor;
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
        for (Chart<?, ?> c : charts) setYMax(c, yMax * 1.05);
        List<Plots.LegendEntry> legend = new ArrayList<>();
        for (String s : seriesNames) legend.add(new Plots.LegendEntry(s, colours.get(s), categories != null));
        if (categories == null && anyTrue(warned)) legend.add(new Plots.LegendEntry("x: " + Plots.WARNED, new Color(0xC00000), false));
        return new Figure(base, new Plots.Grid(title, charts, columns(charts.size()), legend));
    }

    /** Stage bars (stacked or grouped) in one chart, or a panel per distinct {@code panelOf} value. */
    private static Figure stageFigure(String base, String title, String xTitle, String yTitle, List<String> bars, List<String> panelOf,
                                      List<String> stages, double[][] values, boolean stacked) {
        Set<String> panelNames = new LinkedHashSet<>(panelOf);
        if (bars.size() <= MAX_BARS || panelNames.size() < 2) {
            return new Figure(base, Plots.stageBars(title, xTitle, yTitle, bars, stages, values, stacked));
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
            charts.add(Plots.stageBars(panel, xTitle, yTitle, pb, stages, arr, stacked));
        }
        for (Chart<?, ?> c : charts) setYMax(c, yMax * 1.05);
        List<Plots.LegendEntry> legend = new ArrayList<>();
        for (String s : stages) if (used.contains(s)) legend.add(new Plots.LegendEntry(Plots.stageName(s, stages, values), Plots.stageColour(s), true));
        return new Figure(base, new Plots.Grid(title, charts, columns(charts.size()), legend));
    }

    /**
     * Per-stage p99 as grouped bars: the stages on the x axis, one bar per series (run, point or code), a panel per
     * distinct {@code panelOf} value when there are more than {@link #MAX_SERIES} series; panels share the y range.
     */
    static Figure stageP99Figure(String base, String title, List<String> series, List<String> panelOf, List<String> stages,
                                 double[][] p99) {
        Set<String> panelNames = new LinkedHashSet<>(panelOf);
        boolean split = series.size() > MAX_SERIES && panelNames.size() > 1;
        Map<String, Color> colours = Plots.seriesColours(new ArrayList<>(new LinkedHashSet<>(series)));
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
        for (Chart<?, ?> c : charts) setYMax(c, yMax * 1.05);
        // the same series in every panel (hybrid modes): one shared legend; else each panel keeps its own
        boolean shared = new LinkedHashSet<>(series).size() * panelNames.size() == series.size();
        List<Plots.LegendEntry> legend = new ArrayList<>();
        if (shared) for (String s : new LinkedHashSet<>(series)) legend.add(new Plots.LegendEntry(s, colours.get(s), true));
        return new Figure(base, new Plots.Grid(title, charts, columns(charts.size()), legend));
    }

    /** Lines in one chart, or a panel per distinct {@code panelOf} value when there are more than {@link #MAX_SERIES}. */
    private static Figure linesFigure(String base, String title, String xTitle, String yTitle, List<Plots.Line> lines, List<String> panelOf,
                                      List<String> categories, boolean sharedY) {
        List<String> names = new ArrayList<>();
        for (Plots.Line l : lines) names.add(l.name());
        Map<String, Color> colours = Plots.seriesColours(names);
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
            c.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideSE);
            charts.add(c);
        }
        return new Figure(base, new Plots.Grid(title, charts, columns(charts.size()), List.of()));
    }

    private static int columns(int panels) {
        return panels <= 2 ? panels : panels <= 4 ? 2 : 3;
    }

    private static void setYMax(Chart<?, ?> c, double max) {
        if (max <= 0 || !Double.isFinite(max)) return;
        if (c instanceof XYChart xy) xy.getStyler().setYAxisMax(max);
        if (c instanceof CategoryChart cc) cc.getStyler().setYAxisMax(max);
    }

    /** A category's tick label: a numeric hybrid code with its one-sided stages ("6 (READ+LOG)", "0 (all-rpc)"). */
    static String categoryLabel(String key, String value) {
        if (!key.equals("hybrid") || !value.matches("[0-9]+")) return value;
        int code = Integer.parseInt(value);
        List<String> names = new ArrayList<>();
        for (Stage s : Stage.fromMask(code)) names.add(s.name());
        return value + " (" + (names.isEmpty() ? "all-rpc" : String.join("+", names)) + ")";
    }

    private static String panelKey(CsvTable t, List<String> labelKeys, List<String> varying) {
        if (labelKeys.contains("protocol") && varying.contains("protocol")) return "protocol";
        for (String k : labelKeys) if (k.startsWith("workload") && varying.contains(k)) return k;
        for (String k : labelKeys) if (varying.contains(k)) return k;
        return null;
    }

    private static String panelName(String key, String value) {
        return isMode(key) || key.equals("workload.name") ? value : shortKey(key) + "=" + value;
    }

    private static String label(CsvTable t, int r, List<String> keys, String fallback) {
        List<String> parts = new ArrayList<>();
        for (String k : keys) parts.add(isMode(k) ? t.get(r, k) : shortKey(k) + "=" + t.get(r, k));
        return parts.isEmpty() ? fallback : String.join(" ", parts);
    }

    // ------------------------------------------------------------------ helpers

    /** The breakdown's y axis: time per committed transaction, as RCC Fig. 13 stacks it. */
    static final String PER_TXN_AXIS = "us per committed txn (mean x count / commits), stacked";

    /** The y axis for a table: per transaction, or (a table written before 2026-11-26) per call. */
    private static String perTxnAxis(CsvTable t) {
        for (String h : t.header()) if (h.endsWith("_us_per_txn")) return PER_TXN_AXIS;
        return "stage latency, mean per call (us), stacked";
    }

    /** A stage's time per committed transaction in row {@code r} ({@code _us_per_txn}; older tables: the per-call mean). */
    private static double perTxn(CsvTable t, int r, String stage) {
        return t.column(stage + "_us_per_txn") >= 0 ? t.number(r, stage + "_us_per_txn") : t.number(r, stage + "_mean_us");
    }

    /** Stage names from the {@code <STAGE>_mean_us} columns (not their _ci95 partners), in column order. */
    static List<String> stageColumns(CsvTable t) {
        List<String> out = new ArrayList<>();
        for (String h : t.header()) {
            if (h.endsWith("_mean_us") && !h.startsWith("latency_")) out.add(h.substring(0, h.length() - "_mean_us".length()));
        }
        return out;
    }

    private static boolean hasColumnsFor(CsvTable t, List<String> stages, String suffix) {
        for (String s : stages) if (t.column(s + suffix) >= 0) return true;
        return false;
    }

    /** The finished runs in the run directories directly inside {@code dir} (none for null or unreadable ones). */
    static List<RunMetrics> runsIn(Path dir) {
        List<RunMetrics> out = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) return out;
        List<Path> children = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path p : ds) if (!p.getFileName().toString().startsWith(".") && RunMetrics.isResultDir(p)) children.add(p);
        } catch (IOException e) {
            return out;
        }
        children.sort(null);
        for (Path p : children) {
            try {
                out.add(RunMetrics.read(p));
            } catch (IOException e) {
                // not a summary of this version: plotted from the table without its marks
            }
        }
        return out;
    }

    private static boolean warned(List<RunMetrics> runs) {
        if (runs == null) return false;
        for (RunMetrics m : runs) if (m.warned()) return true;
        return false;
    }

    private static boolean anyTrue(boolean[] bs) {
        for (boolean b : bs) if (b) return true;
        return false;
    }

    private static boolean hasAny(double[][] values) {
        for (double[] row : values) for (double v : row) if (Double.isFinite(v) && v != 0) return true;
        return false;
    }

    private static boolean isMode(String key) { return key.equals("protocol") || key.equals("hybrid"); }

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

    private static double zeroIfNaN(double v) { return Double.isFinite(v) ? v : 0; }

    private static double finite(double v) { return Double.isFinite(v) ? v : 0; }

    private static List<String> executeLast(Set<String> names) {
        List<String> out = new ArrayList<>(names);
        if (out.remove(StageBreakdown.EXECUTE)) out.add(StageBreakdown.EXECUTE);
        return out;
    }
}
