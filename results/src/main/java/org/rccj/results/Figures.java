package org.rccj.results;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rccj.framework.spi.Stage;

/**
 * Which charts RCC-J draws from which results (the data side of {@link Plots}):
 * <ul>
 * <li>run directories: {@code stage-breakdown} (one stacked bar per run, labelled protocol and hybrid code);
 * <li>an enumeration's {@code hybrid.csv}: {@code hybrid-scatter} (latency against throughput, the pure
 *     codes and the best code marked) and {@code stage-breakdown} (one bar per code);
 * <li>a sweep's {@code sweep.csv}: {@code sweep-throughput} and {@code sweep-latency} (against the first
 *     varied key, one line per protocol, hybrid mode and other varied values, 95% CI error bars with
 *     repeats) and {@code stage-breakdown} (one bar per point).
 * </ul>
 */
public final class Figures {
    /** File base names. */
    public static final String BREAKDOWN = "stage-breakdown", SCATTER = "hybrid-scatter",
            SWEEP_THROUGHPUT = "sweep-throughput", SWEEP_LATENCY = "sweep-latency";

    /** A chart and the base name of its files. */
    public record Figure(String base, Chart<?, ?> chart) {}

    private Figures() {}

    /** Writes each figure as BASE.png and BASE.svg in {@code out}. */
    public static List<Plots.Saved> save(List<Figure> figures, Path out) throws IOException {
        List<Plots.Saved> saved = new ArrayList<>();
        for (Figure f : figures) saved.add(Plots.save(f.chart(), out, f.base()));
        return saved;
    }

    public static List<Plots.Saved> ofRuns(List<RunMetrics> runs, Path out, String prefix) throws IOException {
        return save(runs(runs, prefix), out);
    }

    public static List<Plots.Saved> ofHybridTable(CsvTable t, Path out, String prefix) throws IOException {
        return save(hybridTable(t, prefix), out);
    }

    public static List<Plots.Saved> ofSweepTable(CsvTable t, String experiment, Path out, String prefix) throws IOException {
        return save(sweepTable(t, experiment, prefix), out);
    }

    /** One stacked bar per run directory. */
    public static List<Figure> runs(List<RunMetrics> runs, String prefix) {
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
        for (int i = 0; i < labels.size(); i++) {
            if (seen.get(labels.get(i)) > 1) labels.set(i, labels.get(i) + " [" + runs.get(i).dir().getFileName() + "]");
        }
        double[][] us = new double[runs.size()][stages.size()];
        for (int i = 0; i < runs.size(); i++) {
            for (int s = 0; s < stages.size(); s++) {
                RunMetrics.StageFigures f = runs.get(i).stages().get(stages.get(s));
                us[i][s] = f == null ? Double.NaN : f.meanUs();
            }
        }
        String title = "Stage latency breakdown" + (workloads.size() == 1 ? " on " + workloads.iterator().next() : "");
        return List.of(new Figure(prefix + BREAKDOWN, Plots.stageBreakdownChart(title, "protocol and hybrid code", labels, stages, us)));
    }

    /** The charts of an enumeration's hybrid.csv. */
    public static List<Figure> hybridTable(CsvTable t, String prefix) throws IOException {
        if (t.rows().isEmpty()) throw new IOException("hybrid.csv has no rows");
        String protocol = t.get(0, "protocol"), workload = t.get(0, "workload");
        String what = (protocol == null ? "" : protocol) + (workload == null ? "" : " on " + workload);
        List<String> stages = stageColumns(t);
        int allOneSided = 0;
        List<String> bitNames = new ArrayList<>();
        for (String s : stages) {
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
        List<Plots.ScatterPoint> points = new ArrayList<>();
        List<String> bars = new ArrayList<>();
        double[][] us = new double[t.rows().size()][stages.size()];
        for (int r = 0; r < t.rows().size(); r++) {
            int code = Integer.parseInt(t.get(r, "code"));
            Plots.Kind kind = code == 0 ? Plots.Kind.ALL_RPC : code == allOneSided ? Plots.Kind.ALL_ONESIDED
                    : r == best ? Plots.Kind.BEST : Plots.Kind.CODE;
            points.add(new Plots.ScatterPoint(code, t.get(r, "onesided"), t.number(r, "throughput_tps"), t.number(r, "latency_mean_us"), kind));
            bars.add(Integer.toString(code));
            for (int s = 0; s < stages.size(); s++) us[r][s] = t.number(r, stages.get(s) + "_mean_us");
        }
        List<Figure> figs = new ArrayList<>();
        figs.add(new Figure(prefix + SCATTER, Plots.hybridScatterChart(
                "Hybrid codes of " + what + ": latency vs throughput (" + t.rows().size() + " codes)", points)));
        figs.add(new Figure(prefix + BREAKDOWN, Plots.stageBreakdownChart("Stage latency breakdown of " + what + " by hybrid code",
                "hybrid code (one-sided stages: " + String.join(", ", bitNames) + ")", bars, stages, us)));
        return figs;
    }

    /** The charts of a sweep's sweep.csv. */
    public static List<Figure> sweepTable(CsvTable t, String experiment, String prefix) throws IOException {
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
        boolean numericX = numeric(t, x);
        List<String> categories = numericX ? null : new ArrayList<>(distinct(t, x));

        List<String> labelKeys = new ArrayList<>();
        for (String k : List.of("protocol", "hybrid")) if (keys.contains(k) && !k.equals(x)) labelKeys.add(k);
        for (String k : keys) if (!k.equals(x) && !isMode(k) && varying.contains(k)) labelKeys.add(k);
        Map<String, List<Integer>> series = new LinkedHashMap<>();
        for (int r = 0; r < t.rows().size(); r++) {
            List<String> parts = new ArrayList<>();
            for (String k : labelKeys) parts.add(isMode(k) ? t.get(r, k) : shortKey(k) + "=" + t.get(r, k));
            String label = parts.isEmpty() ? experiment : String.join(" ", parts);
            series.computeIfAbsent(label, l -> new ArrayList<>()).add(r);
        }
        double maxTps = 0;
        for (int r = 0; r < t.rows().size(); r++) {
            double v = t.number(r, "throughput_tps");
            if (Double.isFinite(v)) maxTps = Math.max(maxTps, v);
        }
        Plots.RateUnit unit = Plots.RateUnit.of(maxTps);
        boolean ci = t.column("throughput_tps_ci95") >= 0;
        List<Plots.Line> tput = new ArrayList<>(), lat = new ArrayList<>();
        for (Map.Entry<String, List<Integer>> e : series.entrySet()) {
            List<Integer> rows = new ArrayList<>(e.getValue());
            if (numericX) {
                String xs = x;
                rows.sort((a, b) -> Double.compare(t.number(a, xs), t.number(b, xs)));
            }
            List<Double> xv = new ArrayList<>(), ty = new ArrayList<>(), te = new ArrayList<>(), ly = new ArrayList<>(), le = new ArrayList<>();
            for (int r : rows) {
                xv.add(numericX ? t.number(r, x) : (double) categories.indexOf(t.get(r, x)));
                ty.add(t.number(r, "throughput_tps") / unit.divisor());
                ly.add(t.number(r, "latency_mean_us"));
                te.add(zeroIfNaN(t.number(r, "throughput_tps_ci95")) / unit.divisor());
                le.add(zeroIfNaN(t.number(r, "latency_mean_us_ci95")));
            }
            tput.add(new Plots.Line(e.getKey(), xv, ty, ci ? te : null));
            lat.add(new Plots.Line(e.getKey(), xv, ly, ci ? le : null));
        }
        String ciNote = ci ? " (mean, 95% CI)" : "";
        List<Figure> figs = new ArrayList<>();
        figs.add(new Figure(prefix + SWEEP_THROUGHPUT, Plots.linesChart("Throughput vs " + x + ": " + experiment + ciNote, x,
                "throughput (" + unit.label() + ")", tput, categories)));
        figs.add(new Figure(prefix + SWEEP_LATENCY, Plots.linesChart("Latency vs " + x + ": " + experiment + ciNote, x,
                "latency, mean (us)", lat, categories)));

        List<String> stages = stageColumns(t);
        List<String> bars = new ArrayList<>();
        double[][] us = new double[t.rows().size()][stages.size()];
        for (int r = 0; r < t.rows().size(); r++) {
            // protocol, hybrid mode and the other varied values: "occ all-rpc coroutines=1"
            List<String> parts = new ArrayList<>();
            for (String k : List.of("protocol", "hybrid")) if (keys.contains(k)) parts.add(t.get(r, k));
            for (String k : keys) if (!isMode(k) && varying.contains(k)) parts.add(shortKey(k) + "=" + t.get(r, k));
            bars.add(parts.isEmpty() ? Integer.toString(r + 1) : String.join(" ", parts));
            for (int s = 0; s < stages.size(); s++) us[r][s] = t.number(r, stages.get(s) + "_mean_us");
        }
        figs.add(new Figure(prefix + BREAKDOWN, Plots.stageBreakdownChart("Stage latency breakdown: " + experiment, "protocol, hybrid code and varied values",
                bars, stages, us)));
        return figs;
    }

    /** Stage names from the {@code <STAGE>_mean_us} columns (not their _ci95 partners), in column order. */
    static List<String> stageColumns(CsvTable t) {
        List<String> out = new ArrayList<>();
        for (String h : t.header()) {
            if (h.endsWith("_mean_us") && !h.startsWith("latency_")) out.add(h.substring(0, h.length() - "_mean_us".length()));
        }
        return out;
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

    private static List<String> executeLast(Set<String> names) {
        List<String> out = new ArrayList<>(names);
        if (out.remove(StageBreakdown.EXECUTE)) out.add(StageBreakdown.EXECUTE);
        return out;
    }
}
