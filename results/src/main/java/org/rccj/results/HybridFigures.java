package org.rccj.results;

import static org.rccj.results.Figures.BREAKDOWN;
import static org.rccj.results.Figures.CDF;
import static org.rccj.results.Figures.MAX_BARS;
import static org.rccj.results.Figures.PROTOCOLS;
import static org.rccj.results.Figures.SCATTER;
import static org.rccj.results.Figures.STAGE_P99;
import static org.rccj.results.Figures.WARN_MARK;
import static org.rccj.results.Figures.finite;
import static org.rccj.results.Figures.hasColumnsFor;
import static org.rccj.results.Figures.maxTps;
import static org.rccj.results.Figures.perTxn;
import static org.rccj.results.Figures.perTxnAxis;
import static org.rccj.results.Figures.runsIn;
import static org.rccj.results.Figures.stageColumns;
import static org.rccj.results.Figures.warnNote;
import static org.rccj.results.Figures.warned;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.knowm.xchart.internal.chartpart.Chart;
import org.rccj.framework.api.Stage;
import org.rccj.results.Figures.Figure;

/**
 * The figures of enumerations: of one hybrid.csv the {@link HybridScatter} of every code, a stacked stage bar per
 * code (panels of at most {@value Figures#MAX_BARS} codes), and the stage p99, throughput over time and latency
 * CDF of the pure and the three fastest codes; of several, {@link #protocols}, RCC Fig. 14's comparison.
 */
final class HybridFigures {
    private HybridFigures() {}

    /** The charts of an enumeration's hybrid.csv; {@code dir} (may be null) holds its run directories. */
    static List<Figure> of(CsvTable t, String prefix, Path dir) throws IOException {
        if (t.rows().isEmpty()) throw new IOException("hybrid.csv has no rows");
        Pure pure = Pure.of(t);
        String what = pure.what();
        List<String> stages = stageColumns(t);
        Map<Integer, List<RunMetrics>> runsByCode = new TreeMap<>();
        for (RunMetrics m : runsIn(dir)) runsByCode.computeIfAbsent(m.code(), c -> new ArrayList<>()).add(m);

        Leaders ranks = Leaders.of(t);
        List<HybridScatter.Point> points = new ArrayList<>();
        List<String> bars = new ArrayList<>();
        double[][] us = new double[t.rows().size()][stages.size()];
        boolean anyWarned = false;
        for (int r = 0; r < t.rows().size(); r++) {
            int code = Integer.parseInt(t.get(r, "code"));
            HybridScatter.Kind kind = code == 0 ? HybridScatter.Kind.ALL_RPC : code == pure.allOneSided() ? HybridScatter.Kind.ALL_ONESIDED
                    : r == pure.best() ? HybridScatter.Kind.BEST : HybridScatter.Kind.CODE;
            boolean warned = warned(runsByCode.get(code));
            anyWarned |= warned;
            points.add(new HybridScatter.Point(code, t.get(r, "onesided"), t.number(r, "throughput_tps"), t.number(r, "latency_mean_us"), kind, warned,
                    t.number(r, "throughput_tps_ci95"), t.number(r, "latency_mean_us_ci95")));
            bars.add(code + (warned ? WARN_MARK : "") + ranks.mark(r));
            for (int s = 0; s < stages.size(); s++) us[r][s] = perTxn(t, r, stages.get(s));
        }
        String note = warnNote(anyWarned);
        String bits = "codes = sum of the one-sided stages' bits: " + String.join(", ", pure.bitNames());
        List<Figure> figs = new ArrayList<>();
        figs.add(new Figure(prefix + SCATTER, HybridScatter.chart(
                "Hybrid codes of " + what + ": latency vs throughput (" + t.rows().size() + " codes)", points, "throughput", bits)));
        List<String> panelOf = new ArrayList<>();
        for (int r = 0; r < t.rows().size(); r++) {
            // named by the codes it shows (rows are sorted by code)
            int first = r / MAX_BARS * MAX_BARS, last = Math.min(t.rows().size(), first + MAX_BARS) - 1;
            panelOf.add("codes " + t.get(first, "code") + "-" + t.get(last, "code"));
        }
        OutsideStages.Extended ext = OutsideStages.ofTable(t, stages, us);
        String yTitle = ext.stages().size() > stages.size() ? Figures.BAR_IS_LATENCY_AXIS : perTxnAxis(t);
        figs.add(Panels.stageFigure(prefix + BREAKDOWN, "Stage time per committed transaction of " + what + " by hybrid code" + note + ext.note()
                        + ranks.note(),
                "hybrid code (" + bits + ")", yTitle, bars, panelOf, ext.stages(), ext.values(), true,
                Figures.passiveAck(runsIn(dir))));

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
            Figure f = Panels.stageP99Figure(prefix + STAGE_P99, "Stage latency, 99th percentile, of " + what + note,
                    labels, Collections.nCopies(labels.size(), ""), stages, p99);
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
        Figure timeline = RunFigures.timeline(pickedRuns, pickedLabels, prefix, " of " + what + ", first seed");
        if (timeline != null) figs.add(timeline);
        Figure cdf = RunFigures.latencyCdf(prefix + CDF, "Latency CDF of " + what + ", first seed", cdfRuns);
        if (cdf != null) figs.add(cdf);
        return figs;
    }

    /**
     * The codes at the top of a hybrid.csv by throughput, as the enumeration ranks them: with repeats the top code and
     * every code whose 95% CI reaches the top code's lower bound (one: the winner; several: tied); with one seed the
     * top code only, which may be tied with the next.
     */
    record Leaders(Set<Integer> rows, boolean repeats) {
        static final String WINNER = " [winner]", TIED = " [tied]", TOP = " [top, 1 seed]";

        static Leaders of(CsvTable t) {
            int top = -1;
            for (int r = 0; r < t.rows().size(); r++) {
                if (top < 0 || finite(t.number(r, "throughput_tps")) > finite(t.number(top, "throughput_tps"))) top = r;
            }
            Set<Integer> rows = new java.util.TreeSet<>();
            if (top < 0) return new Leaders(rows, false);
            rows.add(top);
            boolean repeats = t.column("throughput_tps_ci95") >= 0;
            for (int r = 0; r < t.rows().size() && repeats; r++) repeats = Double.isFinite(t.number(r, "throughput_tps_ci95"));
            if (repeats) {
                double low = t.number(top, "throughput_tps") - t.number(top, "throughput_tps_ci95");
                for (int r = 0; r < t.rows().size(); r++) {
                    if (!(t.number(r, "throughput_tps") + t.number(r, "throughput_tps_ci95") < low)) rows.add(r);
                }
            }
            return new Leaders(rows, repeats);
        }

        String mark(int r) {
            if (!rows.contains(r)) return "";
            return !repeats ? TOP : rows.size() == 1 ? WINNER : TIED;
        }

        String note() {
            if (rows.isEmpty()) return "";
            if (!repeats) return " [top, 1 seed: may tie with the next]";
            return rows.size() == 1 ? " [winner: 95% CI clear of all others]" : " [tied: " + rows.size() + " codes' 95% CIs reach the top's]";
        }
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
     * hybrid code, throughput and mean latency side by side, one row of panels per workload; {@code dirs} (entries
     * may be null) hold each table's run directories, whose warnings mark a protocol's label with " (!)" when any
     * of its three runs has some. Null when no table has rows.
     */
    static Figure protocols(List<CsvTable> tables, List<Path> dirs, String prefix) {
        Map<String, List<CsvTable>> byWorkload = new LinkedHashMap<>();
        Map<CsvTable, Set<Integer>> warnedCodes = new IdentityHashMap<>();
        boolean anyWarned = false;
        for (int i = 0; i < tables.size(); i++) {
            CsvTable t = tables.get(i);
            if (t.rows().isEmpty()) continue;
            String w = t.get(0, "workload");
            byWorkload.computeIfAbsent(w == null ? "" : w, k -> new ArrayList<>()).add(t);
            Set<Integer> codes = new HashSet<>();
            for (RunMetrics m : runsIn(dirs.get(i))) if (m.warned()) codes.add(m.code());
            warnedCodes.put(t, codes);
        }
        List<String> modes = List.of("all-rpc", "all-onesided", "best hybrid");
        Map<String, Color> colours = ChartStyle.seriesColours(modes);
        List<Chart<?, ?>> panels = new ArrayList<>();
        double maxTps = 0;
        for (CsvTable t : tables) maxTps = Math.max(maxTps, maxTps(t));
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
        List<Grid.LegendEntry> legend = new ArrayList<>();
        for (String m : modes) legend.add(new Grid.LegendEntry(m, colours.get(m), true));
        return new Figure(prefix + PROTOCOLS, new Grid("Protocols: all-rpc, all-onesided and the best hybrid code (RCC Fig. 14)"
                + warnNote(anyWarned), panels, 2, legend));
    }

    // ------------------------------------------------------------------ sweeps
}
