package org.rccj.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.run.RunResult;

/**
 * The time of a committed transaction outside its stages, as stage figures draw it so that each bar adds up to the
 * mean latency: summary.json's {@code outside_stages.parts} (one segment per part, named by its key with underscores
 * as spaces) when the results have them; else one segment {@value #DERIVED} = mean latency - the stages' time per
 * committed transaction, clamped at 0 (the figure then says by how much the stages exceed the latency).
 * Tables carry the parts as {@code outside_<part>_us_per_txn} columns. The parts themselves come from a run's
 * result ({@link #partsNs}, {@link #json}): {@link RunResult#OUTSIDE_PARTS}, then {@link RunResult#ROLLED_BACK} and
 * {@link RunResult#WINDOW_EDGES}; they sum to the whole, and the protocol stages' {@code us_per_txn} plus the whole is
 * the mean latency (the last two are corrections and may be negative).
 */
public final class OutsideStages {
    /** The part of {@code outside_stages} that is the workload's logic (EXECUTE) of the committed attempt. */
    static final String EXECUTE_PART = "execute";
    /**
     * Whether a stage's time per committed transaction belongs in the sum that, with the time outside the stages,
     * makes the mean latency: every stage, but with the parts the EXECUTE row (every attempt's logic, per call)
     * does not, as their {@value #EXECUTE_PART} is the committed attempt's. The one place that rule lives.
     */
    static boolean inLatencySum(String stage, boolean withParts) {
        return !(withParts && stage.equals(StageBreakdown.EXECUTE));
    }

    /** The one segment of results without {@code outside_stages}. */
    public static final String DERIVED = "outside stages";
    /** Table columns of the parts: {@code outside_<part>_us_per_txn}. */
    static final String PREFIX = "outside_", SUFFIX = "_us_per_txn";

    private OutsideStages() {}

    /** A part's legend name: its key with underscores as spaces. */
    public static String label(String key) { return key.replace('_', ' '); }

    /** Segments (legend name to us per committed txn) from {@code parts} (may be empty) or derived. */
    static Map<String, Double> segments(Map<String, Double> parts, double latencyMeanUs, double stagesUs) {
        Map<String, Double> out = new LinkedHashMap<>();
        if (parts != null && !parts.isEmpty()) {
            for (Map.Entry<String, Double> e : parts.entrySet()) out.put(label(e.getKey()), e.getValue());
        } else if (Double.isFinite(latencyMeanUs) && Double.isFinite(stagesUs)) {
            out.put(DERIVED, Math.max(0, latencyMeanUs - stagesUs));
        }
        return out;
    }

    /** By how much the stages' time per committed txn exceeds the mean latency (0 when it does not). */
    static double excessUs(double latencyMeanUs, double stagesUs) {
        return Double.isFinite(latencyMeanUs) && Double.isFinite(stagesUs) ? Math.max(0, stagesUs - latencyMeanUs) : 0;
    }

    /** The part keys of a table's {@code outside_<part>_us_per_txn} columns, in column order. */
    static List<String> partColumns(CsvTable t) {
        List<String> out = new ArrayList<>();
        for (String h : t.header()) {
            if (h.startsWith(PREFIX) && h.endsWith(SUFFIX) && h.length() > PREFIX.length() + SUFFIX.length()) {
                out.add(h.substring(PREFIX.length(), h.length() - SUFFIX.length()));
            }
        }
        return out;
    }

    /**
     * Stage figures with the time outside stages appended as segments, so that each bar sums to its mean latency:
     * {@code stages} and {@code values} (us per committed txn, [bar][stage]) extended by one column per segment
     * name; {@code note} is empty or says on how many bars the stages exceed the mean latency (segment clamped at 0).
     */
    record Extended(List<String> stages, double[][] values, String note) {}

    /** {@link Extended} for bars whose outside segments are {@code segments.get(bar)} and excesses {@code excess[bar]}. */
    static Extended extend(List<String> stages, double[][] values, List<Map<String, Double>> segments, double[] excess) {
        // a bar whose parts measure EXECUTE (outside_stages' "execute": once per committed transaction) draws it there,
        // not again as the EXECUTE stage row (every attempt's logic, per call); when every bar has it the row goes
        int ex = stages.indexOf(StageBreakdown.EXECUTE);
        if (ex >= 0) {
            boolean all = true;
            values = values.clone();
            for (int b = 0; b < values.length; b++) {
                if (!inLatencySum(StageBreakdown.EXECUTE, segments.get(b).containsKey(label(EXECUTE_PART)))) {
                    values[b] = values[b].clone();
                    values[b][ex] = 0;
                } else {
                    all = false;
                }
            }
            if (all && values.length > 0) {
                List<String> kept = new ArrayList<>(stages);
                kept.remove(ex);
                double[][] cut = new double[values.length][];
                for (int b = 0; b < values.length; b++) {
                    double[] row = new double[kept.size()];
                    for (int s = 0, k = 0; s < stages.size(); s++) if (s != ex) row[k++] = values[b][s];
                    cut[b] = row;
                }
                stages = kept;
                values = cut;
            }
        }
        List<String> names = new ArrayList<>(stages);
        for (Map<String, Double> m : segments) for (String k : m.keySet()) if (!names.contains(k)) names.add(k);
        double[][] out = new double[values.length][names.size()];
        int over = 0;
        double most = 0;
        for (int b = 0; b < values.length; b++) {
            for (int s = 0; s < names.size(); s++) {
                out[b][s] = s < stages.size() ? values[b][s] : segments.get(b).getOrDefault(names.get(s), Double.NaN);
            }
            if (excess[b] > 0.005) {
                over++;
                most = Math.max(most, excess[b]);
            }
        }
        String note = over == 0 ? "" : String.format(Locale.ROOT,
                " [stages > latency by <= %.2f us on %d of %d bars]", most, over, values.length);
        Folded f = foldNegative(names, stages.size(), out);
        return new Extended(f.names(), f.values(), note + f.note());
    }

    private record Folded(List<String> names, double[][] values, String note) {}

    /**
     * A stacked bar's top must be its mean latency, so a negative reconciling part (the stage time of rolled-back
     * transactions, which the stage rows hold and the latency of committed ones does not) is not drawn below zero: it is
     * taken from the stage segments in proportion to their size, and the title says so with its size. Columns left with
     * nothing to draw go.
     */
    private static Folded foldNegative(List<String> names, int nStages, double[][] values) {
        java.util.Set<String> folded = new java.util.LinkedHashSet<>();
        double most = 0;
        for (double[] bar : values) {
            double neg = 0, stagesUs = 0;
            for (int s = nStages; s < bar.length; s++) {
                if (bar[s] < 0) {
                    neg += bar[s];
                    folded.add(names.get(s));
                    bar[s] = 0;
                }
            }
            if (neg == 0) continue;
            most = Math.max(most, -neg);
            for (int s = 0; s < nStages; s++) stagesUs += Figures.finite(bar[s]);
            double factor = stagesUs <= 0 ? 1 : Math.max(0, (stagesUs + neg) / stagesUs);
            for (int s = 0; s < nStages; s++) if (Double.isFinite(bar[s])) bar[s] *= factor;
        }
        if (folded.isEmpty()) return new Folded(names, values, "");
        List<Integer> keep = new ArrayList<>();
        for (int s = 0; s < names.size(); s++) {
            boolean any = s < nStages;
            for (double[] bar : values) any |= Double.isFinite(bar[s]) && bar[s] != 0;
            if (any) keep.add(s);
        }
        List<String> kept = new ArrayList<>();
        for (int s : keep) kept.add(names.get(s));
        double[][] out = new double[values.length][keep.size()];
        for (int b = 0; b < values.length; b++) for (int k = 0; k < keep.size(); k++) out[b][k] = values[b][keep.get(k)];
        String note = String.format(Locale.ROOT, " [stages net of %s: <= %.2f us/txn, in proportion]", String.join(", ", folded), most);
        return new Folded(kept, out, note);
    }

    /** {@link #extend} for the rows of a table with {@code <STAGE>_us_per_txn} columns (tables without them: unchanged). */
    static Extended ofTable(CsvTable t, List<String> stages, double[][] values) {
        if (!Figures.perTxnAxis(t).equals(Figures.PER_TXN_AXIS) || t.column("latency_mean_us") < 0) {
            return new Extended(stages, values, "");
        }
        List<String> parts = partColumns(t);
        List<Map<String, Double>> segs = new ArrayList<>();
        double[] excess = new double[t.rows().size()];
        for (int r = 0; r < t.rows().size(); r++) {
            double stagesUs = 0;
            for (int s = 0; s < stages.size(); s++) stagesUs += Figures.finite(values[r][s]);
            Map<String, Double> given = new LinkedHashMap<>();
            for (String p : parts) given.put(p, t.number(r, PREFIX + p + SUFFIX));
            double mean = t.number(r, "latency_mean_us");
            segs.add(segments(given, mean, stagesUs));
            excess[r] = parts.isEmpty() ? excessUs(mean, stagesUs) : 0;
        }
        return extend(stages, values, segs, excess);
    }

    /** {@link #extend} for runs (bar i is run i). */
    static Extended ofRuns(List<RunMetrics> runs, List<String> stages, double[][] values) {
        List<Map<String, Double>> segs = new ArrayList<>();
        double[] excess = new double[runs.size()];
        for (int i = 0; i < runs.size(); i++) {
            RunMetrics m = runs.get(i);
            segs.add(m.outsideStages());
            double stagesUs = 0;
            for (RunMetrics.StageFigures f : m.stages().values()) stagesUs += f.perCommitUs(m.commits());
            excess[i] = m.outsideParts().isEmpty() ? excessUs(m.latencyMeanUs(), stagesUs) : 0;
        }
        return extend(stages, values, segs, excess);
    }

    /**
     * Whether the result carries the per-transaction accounting the parts are made of (every run's does; a result
     * put together by hand, e.g. a test's stand-in, may not): without it the parts would be meaningless, and
     * summary.json has no {@code outside_stages} (figures then derive the segment from the mean latency).
     */
    static boolean accounted(RunResult r) {
        if (r.committedStageNs != 0 || r.rolledBackStageNs != 0) return true;
        for (long v : r.outsideNs) if (v != 0) return true;
        return false;
    }

    /** Part name -> ns per committed transaction, in order (empty without commits or without the accounting). */
    public static Map<String, Double> partsNs(RunResult r) {
        Map<String, Double> out = new LinkedHashMap<>();
        long commits = r.commits();
        if (commits <= 0 || !accounted(r)) return out;
        for (int i = 0; i < RunResult.OUTSIDE_PARTS.size(); i++) out.put(RunResult.OUTSIDE_PARTS.get(i), (double) r.outsideNs[i] / commits);
        long stageTotals = 0;
        for (Histogram h : r.stages.values()) stageTotals += h.sum();
        out.put(RunResult.ROLLED_BACK, (double) -r.rolledBackStageNs / commits);
        out.put(RunResult.WINDOW_EDGES, (double) (r.committedStageNs + r.rolledBackStageNs - stageTotals) / commits);
        return out;
    }

    /** summary.json's {@code outside_stages}: {@code us_per_txn} and {@code parts} (part -> us per committed transaction). */
    public static Map<String, Object> json(RunResult r) {
        Map<String, Double> ns = partsNs(r);
        java.math.BigDecimal sum = java.math.BigDecimal.ZERO;
        Map<String, Object> parts = new LinkedHashMap<>();
        for (Map.Entry<String, Double> e : ns.entrySet()) {
            java.math.BigDecimal us = Decimals.us(e.getValue());
            parts.put(e.getKey(), us);
            sum = sum.add(us);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        // the sum of the rounded parts, so that sum(parts) == us_per_txn holds exactly in the file itself
        m.put("us_per_txn", sum.signum() == 0 ? java.math.BigDecimal.ZERO.setScale(1) : sum);
        m.put("parts", parts);
        return m;
    }
}
