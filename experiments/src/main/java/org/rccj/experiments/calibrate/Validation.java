package org.rccj.experiments.calibrate;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.rccj.results.Plots;
import org.rccj.results.RunMetrics;

/**
 * {@code rcc validate}'s comparison of real runs with the simulator's prediction of them: per run the figures side by
 * side with sim/real, per point (runs that differ only in hybrid code) the winning code on each side overall and per
 * stage, and the mean absolute throughput error. Pure: it reads {@link RunMetrics} and writes text, CSV and a chart.
 */
public final class Validation {
    /**
     * One config run on the real fabric and on sim with the same seed.
     *
     * @param point what the run is a point of: its config without hybrid code, name and seed
     * @param hybrid the hybrid code as spelled (all-rpc, all-onesided, READ+LOCK, ...)
     */
    public record Pair(String config, String point, String hybrid, long seed, RunMetrics real, RunMetrics sim) {}

    /** Per point: the code with the higher mean throughput on each side; per stage: the code with less time per commit. */
    public record Winner(String point, String real, String sim, Map<String, String[]> stages) {
        public boolean agree() { return real.equals(sim); }
    }

    private final List<Pair> pairs;

    public Validation(List<Pair> pairs) { this.pairs = List.copyOf(pairs); }

    /** Every stage any run reports, in first-seen order. */
    public List<String> stages() {
        Set<String> s = new LinkedHashSet<>();
        for (Pair p : pairs) {
            s.addAll(p.real().stages().keySet());
            s.addAll(p.sim().stages().keySet());
        }
        return new ArrayList<>(s);
    }

    static double perCommit(RunMetrics m, String stage) {
        RunMetrics.StageFigures f = m.stages().get(stage);
        return f == null ? 0 : f.perCommitUs(m.commits());
    }

    /** Mean over runs of |sim / real - 1| of throughput (runs with no real throughput left out). */
    public double meanAbsThroughputError() {
        double sum = 0;
        int n = 0;
        for (Pair p : pairs) {
            if (p.real().throughputTps() <= 0) continue;
            sum += Math.abs(p.sim().throughputTps() / p.real().throughputTps() - 1);
            n++;
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    /** The winners of every point with at least two codes. */
    public List<Winner> winners() {
        Map<String, Map<String, List<Pair>>> byPoint = new LinkedHashMap<>();
        for (Pair p : pairs) byPoint.computeIfAbsent(p.point(), k -> new LinkedHashMap<>()).computeIfAbsent(p.hybrid(), k -> new ArrayList<>()).add(p);
        List<Winner> out = new ArrayList<>();
        List<String> stages = stages();
        for (Map.Entry<String, Map<String, List<Pair>>> e : byPoint.entrySet()) {
            if (e.getValue().size() < 2) continue;
            String realBest = null, simBest = null;
            double realTop = -1, simTop = -1;
            Map<String, String[]> perStage = new LinkedHashMap<>();
            Map<String, double[]> stageLow = new LinkedHashMap<>();
            for (Map.Entry<String, List<Pair>> h : e.getValue().entrySet()) {
                double r = mean(h.getValue(), true, null), s = mean(h.getValue(), false, null);
                if (r > realTop) { realTop = r; realBest = h.getKey(); }
                if (s > simTop) { simTop = s; simBest = h.getKey(); }
                for (String st : stages) {
                    if (!changedByCode(e.getValue(), st)) continue; // no code of the point binds it otherwise: nothing to rank
                    double rs = mean(h.getValue(), true, st), ss = mean(h.getValue(), false, st);
                    if (rs == 0 && ss == 0) continue;
                    double[] low = stageLow.computeIfAbsent(st, k -> new double[] {Double.MAX_VALUE, Double.MAX_VALUE});
                    String[] w = perStage.computeIfAbsent(st, k -> new String[2]);
                    if (rs < low[0]) { low[0] = rs; w[0] = h.getKey(); }
                    if (ss < low[1]) { low[1] = ss; w[1] = h.getKey(); }
                }
            }
            out.add(new Winner(e.getKey(), realBest, simBest, perStage));
        }
        return out;
    }

    /**
     * Whether the codes of a point bind {@code stage} differently (one-sided in some, RPC in others): a stage no hybrid
     * bit controls (EXECUTE, the workload's logic) or one every code binds alike has no winning code, only noise.
     */
    static boolean changedByCode(Map<String, List<Pair>> byHybrid, String stage) {
        Set<Boolean> bound = new java.util.HashSet<>();
        for (List<Pair> ps : byHybrid.values()) bound.add(ps.get(0).real().onesided().contains(stage));
        return bound.size() > 1;
    }

    /**
     * Per point, how many pairs of codes the simulator orders as the real runs do by mean throughput: {agreeing, pairs}
     * summed over the points.
     */
    public int[] orderedAlike() {
        Map<String, Map<String, List<Pair>>> byPoint = new LinkedHashMap<>();
        for (Pair p : pairs) byPoint.computeIfAbsent(p.point(), k -> new LinkedHashMap<>()).computeIfAbsent(p.hybrid(), k -> new ArrayList<>()).add(p);
        int alike = 0, all = 0;
        for (Map<String, List<Pair>> codes : byPoint.values()) {
            List<List<Pair>> l = new ArrayList<>(codes.values());
            for (int i = 0; i < l.size(); i++) {
                for (int j = i + 1; j < l.size(); j++) {
                    double r = mean(l.get(i), true, null) - mean(l.get(j), true, null), s = mean(l.get(i), false, null) - mean(l.get(j), false, null);
                    all++;
                    if (Math.signum(r) == Math.signum(s)) alike++;
                }
            }
        }
        return new int[] {alike, all};
    }

    private static double mean(List<Pair> ps, boolean real, String stage) {
        double sum = 0;
        for (Pair p : ps) {
            RunMetrics m = real ? p.real() : p.sim();
            sum += stage == null ? m.throughputTps() : perCommit(m, stage);
        }
        return sum / ps.size();
    }

    private static String ratio(double sim, double real) {
        return real == 0 ? (sim == 0 ? "-" : "inf") : String.format(Locale.ROOT, "%.2f", sim / real);
    }

    /** The side-by-side tables, the winners and the error. */
    public void print(PrintStream o) {
        o.println("per run: real | sim | sim/real (throughput txn/s; latency us)");
        o.printf(Locale.ROOT, "%-28s %-13s %5s | %9s %9s %6s | %8s %8s %6s | %8s %8s %6s%n", "config", "hybrid", "seed",
                "tput", "sim", "ratio", "mean", "sim", "ratio", "p99", "sim", "ratio");
        for (Pair p : pairs) {
            RunMetrics r = p.real(), s = p.sim();
            o.printf(Locale.ROOT, "%-28s %-13s %5d | %9.0f %9.0f %6s | %8.1f %8.1f %6s | %8.1f %8.1f %6s%n", p.config(), p.hybrid(), p.seed(),
                    r.throughputTps(), s.throughputTps(), ratio(s.throughputTps(), r.throughputTps()),
                    r.latencyMeanUs(), s.latencyMeanUs(), ratio(s.latencyMeanUs(), r.latencyMeanUs()),
                    r.latencyP99Us(), s.latencyP99Us(), ratio(s.latencyP99Us(), r.latencyP99Us()));
        }
        o.println();
        o.println("per run and stage: time per committed transaction, us, real / sim (sim/real)");
        for (Pair p : pairs) {
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-28s %-13s %5d ", p.config(), p.hybrid(), p.seed()));
            for (String st : stages()) {
                double r = perCommit(p.real(), st), s = perCommit(p.sim(), st);
                if (r == 0 && s == 0) continue;
                sb.append(String.format(Locale.ROOT, " %s %.1f/%.1f (%s)", st, r, s, ratio(s, r)));
            }
            o.println(sb);
        }
        o.println();
        List<Winner> ws = winners();
        int agree = 0, stageAgree = 0, stageAll = 0;
        o.println("winners per point (real / sim), and per stage (the code with less time per commit, real / sim)");
        for (Winner w : ws) {
            if (w.agree()) agree++;
            StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-40s %s / %s %s |", w.point(), w.real(), w.sim(), w.agree() ? "agree" : "DIFFER"));
            for (Map.Entry<String, String[]> e : w.stages().entrySet()) {
                boolean same = e.getValue()[0].equals(e.getValue()[1]);
                stageAll++;
                if (same) stageAgree++;
                sb.append(' ').append(e.getKey()).append(' ').append(e.getValue()[0]).append('/').append(e.getValue()[1]).append(same ? "" : "!");
            }
            o.println(sb);
        }
        o.printf(Locale.ROOT, "winners agree in %d of %d points; stage winners agree in %d of %d (stages the point's codes all bind alike,"
                + " e.g. EXECUTE, left out: no code changes them)%n", agree, ws.size(), stageAgree, stageAll);
        double err = meanAbsThroughputError();
        o.printf(Locale.ROOT, "mean absolute throughput error |sim/real - 1| over %d runs: %.1f%%%n", pairs.size(), 100 * err);
        int[] alike = orderedAlike();
        for (String l : runWarnings()) o.println(l);
        for (String l : hostLoads()) o.println(l);
        o.println(Verdicts.validateRule());
        o.println(Verdicts.validate(agree, ws.size(), alike[0], alike[1], stageAgree, stageAll, err, basis(ws)));
    }

    /** What the verdict rests on: points and codes ranked, real runs, their shortest window and how many were unsteady. */
    Verdicts.Basis basis(List<Winner> ws) {
        Map<String, Set<String>> codes = new LinkedHashMap<>();
        for (Pair p : pairs) codes.computeIfAbsent(p.point(), k -> new LinkedHashSet<>()).add(p.hybrid());
        int nCodes = 0;
        for (Set<String> c : codes.values()) if (c.size() > 1) nCodes += c.size();
        double shortest = Double.POSITIVE_INFINITY;
        int unsteady = 0;
        for (Pair p : pairs) {
            com.fasterxml.jackson.databind.JsonNode d = p.real().config() == null ? null : p.real().config().get("duration_ms");
            if (d != null && d.isNumber()) shortest = Math.min(shortest, d.asDouble() / 1000);
            if (p.real().warnings().stream().anyMatch(w -> w.startsWith(org.rccj.results.HostNoise.UNSTEADY))) unsteady++;
        }
        return new Verdicts.Basis(ws.size(), nCodes, pairs.size(), Double.isFinite(shortest) ? shortest : 0, unsteady);
    }

    /** The real runs' own warnings (busy host, unsteady throughput, short windows...), each once with how many runs have it. */
    List<String> runWarnings() {
        Map<String, Integer> count = new LinkedHashMap<>();
        for (Pair p : pairs) for (String w : p.real().warnings()) count.merge(w, 1, Integer::sum);
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, Integer> e : count.entrySet()) {
            out.add("warning (" + e.getValue() + " of " + pairs.size() + " real runs): " + e.getKey());
        }
        return out;
    }

    /** The host's load during the real runs (summary.json's environment.host_load): the range of the load averages. */
    List<String> hostLoads() {
        double lo = Double.POSITIVE_INFINITY, hi = Double.NEGATIVE_INFINITY;
        int cores = 0, n = 0;
        for (Pair p : pairs) {
            if (p.real().dir() == null) continue;
            try {
                com.fasterxml.jackson.databind.JsonNode h = org.rccj.results.SummaryJson.read(p.real().dir().resolve(org.rccj.results.SummaryJson.FILE_NAME))
                        .path("environment").path("host_load");
                if (!h.isObject()) continue;
                for (String k : List.of("load_avg_1m_before", "load_avg_1m_after")) {
                    if (!h.path(k).isNumber()) continue;
                    lo = Math.min(lo, h.path(k).asDouble());
                    hi = Math.max(hi, h.path(k).asDouble());
                }
                cores = Math.max(cores, h.path("cores").asInt(0));
                n++;
            } catch (IOException | RuntimeException e) {
                // no summary.json (made-up figures): nothing to say
            }
        }
        if (n == 0) return List.of("host load: not recorded by the real runs");
        return List.of(String.format(Locale.ROOT, "host load during the %d real runs: load average %.2f to %.2f on %d cores", n, lo, hi, cores));
    }

    /** validation.csv: one row per run and metric (throughput, latencies, each stage's time per commit). */
    public String csv() {
        StringBuilder sb = new StringBuilder("config,point,hybrid,seed,metric,real,sim,sim_over_real\n");
        for (Pair p : pairs) {
            Map<String, double[]> m = new LinkedHashMap<>();
            m.put("throughput_tps", new double[] {p.real().throughputTps(), p.sim().throughputTps()});
            m.put("latency_mean_us", new double[] {p.real().latencyMeanUs(), p.sim().latencyMeanUs()});
            m.put("latency_p99_us", new double[] {p.real().latencyP99Us(), p.sim().latencyP99Us()});
            m.put("abort_rate", new double[] {p.real().abortRate(), p.sim().abortRate()});
            for (String st : stages()) m.put("stage_us_per_commit." + st, new double[] {perCommit(p.real(), st), perCommit(p.sim(), st)});
            for (Map.Entry<String, double[]> e : m.entrySet()) {
                double r = e.getValue()[0], s = e.getValue()[1];
                sb.append(q(p.config())).append(',').append(q(p.point())).append(',').append(q(p.hybrid())).append(',').append(p.seed()).append(',')
                        .append(e.getKey()).append(',').append(num(r)).append(',').append(num(s)).append(',')
                        .append(r == 0 ? "" : num(s / r)).append('\n');
            }
        }
        return sb.toString();
    }

    /** Real against predicted throughput, one marker per run (a series per hybrid code), with the diagonal. */
    public Plots.Saved figure(String title, Path dir) throws IOException {
        XYChart c = new XYChartBuilder().width(800).height(640).title(title)
                .xAxisTitle("real throughput, txn/s").yAxisTitle("sim throughput (predicted), txn/s").build();
        c.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        c.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        double max = 0;
        Map<String, List<double[]>> byHybrid = new LinkedHashMap<>();
        for (Pair p : pairs) {
            byHybrid.computeIfAbsent(p.hybrid(), k -> new ArrayList<>()).add(new double[] {p.real().throughputTps(), p.sim().throughputTps()});
            max = Math.max(max, Math.max(p.real().throughputTps(), p.sim().throughputTps()));
        }
        max = max <= 0 ? 1 : max * 1.05;
        XYSeries diag = c.addSeries("sim = real", new double[] {0, max}, new double[] {0, max});
        diag.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        diag.setMarker(SeriesMarkers.NONE);
        diag.setLineColor(java.awt.Color.GRAY);
        for (Map.Entry<String, List<double[]>> e : byHybrid.entrySet()) {
            double[] x = e.getValue().stream().mapToDouble(v -> v[0]).toArray(), y = e.getValue().stream().mapToDouble(v -> v[1]).toArray();
            c.addSeries(e.getKey(), x, y);
        }
        c.getStyler().setXAxisMin(0.0).setXAxisMax(max).setYAxisMin(0.0).setYAxisMax(max);
        c.getStyler().setXAxisDecimalPattern("#,##0").setYAxisDecimalPattern("#,##0");
        return Plots.save(c, dir, "validation");
    }

    private static String num(double v) { return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v); }

    private static String q(String s) { return "\"" + s.replace("\"", "\"\"") + "\""; }
}
