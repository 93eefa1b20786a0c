package org.rccj.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.PathTotals;
import org.rccj.primitives.CriticalPath;

/**
 * The critical-path split of a run's ops per stage (sim only; docs/decisions/0139-critical-path-split.md): summary.json's
 * {@code critical_path} (per stage that waited for ops: {@code calls}, the mean {@code latency_ns} of a call and the
 * mean of each term, {@code terms_ns}, in {@link CriticalPath#TERMS}' order; the terms of every call sum to its latency
 * in integer ns, so their means sum to the mean latency up to the rounding to 0.1 ns) and stages.csv's {@code cp_*}
 * columns. A call is one wait of a coroutine, from its first post to its running again, carried by the op that
 * completed last. Waits outside every stage have the bucket {@value PathTotals#OUTSIDE_NAME}.
 */
public final class CriticalPathReport {
    /** Decimals of the mean ns figures. */
    static final int NS = 1;

    private CriticalPathReport() {}

    /** The buckets with calls: the run's stages in protocol order, then any other stage, then the one outside stages. */
    public static List<Integer> buckets(RunResult r) {
        List<Integer> out = new ArrayList<>();
        PathTotals p = r.paths;
        for (Stage s : r.stages.keySet()) if (p.calls[s.ordinal()] > 0) out.add(s.ordinal());
        for (Stage s : Stage.values()) if (p.calls[s.ordinal()] > 0 && !out.contains(s.ordinal())) out.add(s.ordinal());
        if (p.calls[PathTotals.OUTSIDE] > 0) out.add(PathTotals.OUTSIDE);
        return out;
    }

    /** The bucket of a stage name (or {@value PathTotals#OUTSIDE_NAME}), case-insensitive; -1 for none. */
    public static int bucket(String name) {
        if (name.equalsIgnoreCase(PathTotals.OUTSIDE_NAME)) return PathTotals.OUTSIDE;
        Stage s = Stage.byName(name);
        return s == null ? -1 : s.ordinal();
    }

    /** Mean ns per call of {@code term} in {@code bucket}. */
    public static double meanNs(PathTotals p, int bucket, int term) {
        return p.calls[bucket] == 0 ? 0 : (double) p.ns[bucket][term] / p.calls[bucket];
    }

    public static double meanLatencyNs(PathTotals p, int bucket) {
        return p.calls[bucket] == 0 ? 0 : (double) p.latencyNs[bucket] / p.calls[bucket];
    }

    /** summary.json's {@code critical_path}, or null when the run traced no paths (every fabric but sim). */
    public static Map<String, Object> json(RunResult r) {
        if (!r.paths.any()) return null;
        Map<String, Object> m = new LinkedHashMap<>();
        for (int b : buckets(r)) {
            Map<String, Object> bm = new LinkedHashMap<>();
            bm.put("calls", r.paths.calls[b]);
            bm.put("latency_ns", Decimals.round(meanLatencyNs(r.paths, b), NS));
            Map<String, Object> terms = new LinkedHashMap<>();
            for (int t = 0; t < CriticalPath.COUNT; t++) terms.put(CriticalPath.TERMS.get(t).key(), Decimals.round(meanNs(r.paths, b, t), NS));
            bm.put("terms_ns", terms);
            m.put(PathTotals.name(b), bm);
        }
        return m;
    }

    /** stages.csv's extra header: {@code cp_calls,cp_latency_ns,cp_<term>_ns...}. */
    static String csvHeader() {
        StringBuilder sb = new StringBuilder("cp_calls,cp_latency_ns");
        for (CriticalPath t : CriticalPath.TERMS) sb.append(",cp_").append(t.key()).append("_ns");
        return sb.toString();
    }

    /** stages.csv's extra cells of a row named {@code stage}: the stage's figures, or empty cells (no paths, no such bucket). */
    static String csvCells(RunResult r, String stage) {
        int b = bucket(stage);
        StringBuilder sb = new StringBuilder();
        boolean has = b >= 0 && r.paths.calls[b] > 0;
        sb.append(has ? Long.toString(r.paths.calls[b]) : "").append(',');
        sb.append(has ? Decimals.text(Decimals.round(meanLatencyNs(r.paths, b), NS)) : "");
        for (int t = 0; t < CriticalPath.COUNT; t++) {
            sb.append(',');
            if (has) sb.append(Decimals.text(Decimals.round(meanNs(r.paths, b, t), NS)));
        }
        return sb.toString();
    }
}
