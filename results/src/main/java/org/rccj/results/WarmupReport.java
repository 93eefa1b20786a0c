package org.rccj.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rccj.framework.run.AutoWarmup;
import org.rccj.framework.run.RunResult;

/**
 * What a {@code warmup_ms: auto} warm-up did (decision 0210): summary.json's {@code warmup} object, its warnings, and
 * the rows timeline.csv gives the warm-up before the measured window's ({@code t_ms <= 0}).
 */
final class WarmupReport {
    /** How the warning of a warm-up that the bound ended begins. */
    static final String NOT_STEADY = "warm-up: the throughput was not steady within ";

    private WarmupReport() {}

    /**
     * summary.json's {@code warmup} (null with a fixed warm-up): {@code mode} "auto", {@code took_ms} (from the run's
     * start to the window's), {@code bound_ms}, {@code steady} (false: the bound ended it), {@code rule}, and the
     * intervals the rule saw: {@code interval_end_ms} (after the run's start) and {@code interval_tps} (node 0's
     * throughput on tcp and ucx), {@code node_window_start_ms} (each node's window start after the run's start).
     */
    static Map<String, Object> json(RunResult r) {
        RunResult.Warmup w = r.warmup;
        if (w == null) return null;
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", "auto");
        m.put("took_ms", Decimals.round(w.tookMs(), 3));
        m.put("bound_ms", Decimals.round(w.boundMs(), 3));
        m.put("steady", w.steady());
        m.put("rule", AutoWarmup.RULE);
        List<Object> ends = new ArrayList<>(), tps = new ArrayList<>(), nodes = new ArrayList<>();
        for (double e : w.bucketEndMs()) ends.add(Decimals.round(e, 3));
        for (double t : w.bucketTps()) tps.add(Decimals.round(t, Decimals.TPS));
        for (double s : w.nodeStartMs()) nodes.add(Decimals.round(s, 3));
        m.put("interval_end_ms", ends);
        m.put("interval_tps", tps);
        m.put("node_window_start_ms", nodes);
        return m;
    }

    static List<String> warnings(RunResult r) {
        List<String> out = new ArrayList<>();
        RunResult.Warmup w = r.warmup;
        if (w == null) return out;
        if (!w.steady()) {
            out.add(String.format(Locale.ROOT, NOT_STEADY + "%.0f ms (warmup_ms: auto; %s): the window opened anyway; raise the bound"
                    + " (warmup_ms=auto:MAX_MS) or quiet the host; see timeline.csv's rows up to t_ms 0", w.boundMs(), AutoWarmup.RULE));
        }
        if (!w.nodesAgree()) {
            List<String> starts = new ArrayList<>();
            for (double s : w.nodeStartMs()) starts.add(Double.isNaN(s) ? "never" : String.format(Locale.ROOT, "%.3f", s));
            out.add("warm-up: the nodes' measured windows started at different times (ms after the run's start, per node: "
                    + String.join(", ", starts) + "): the nodes measured different windows");
        }
        return out;
    }

    /** timeline.csv's rows for the warm-up's intervals: end relative to the window's start (<= 0), commits, throughput. */
    static void csvRows(RunResult r, StringBuilder sb) {
        RunResult.Warmup w = r.warmup;
        if (w == null) return;
        for (int i = 0; i < w.bucketEndMs().length; i++) {
            sb.append(Decimals.text(Decimals.round(w.bucketEndMs()[i] - w.tookMs(), Decimals.US))).append(',')
              .append(w.bucketCommits()[i]).append(',')
              .append(Decimals.text(Decimals.round(w.bucketTps()[i], Decimals.TPS))).append('\n');
        }
    }
}
