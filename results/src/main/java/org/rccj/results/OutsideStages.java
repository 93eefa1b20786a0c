package org.rccj.results;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.Histogram;

/**
 * The time of a committed transaction outside its protocol stages, per committed transaction, by part
 * ({@link RunResult#OUTSIDE_PARTS}, then {@link RunResult#ROLLED_BACK} and {@link RunResult#WINDOW_EDGES}): summary.json's
 * {@code outside_stages}, stages.csv's {@code outside:<part>} rows. The parts sum to the whole, and the protocol
 * stages' {@code us_per_txn} (total stage time / commits) plus the whole is the mean latency.
 */
public final class OutsideStages {
    private OutsideStages() {}

    /** Part name -> ns per committed transaction, in order (empty without commits). */
    public static Map<String, Double> partsNs(RunResult r) {
        Map<String, Double> out = new LinkedHashMap<>();
        long commits = r.commits();
        if (commits <= 0) return out;
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
