package org.rccj.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.Histogram;

/**
 * The stage breakdown of a run, as summary.json, stages.csv and the console show it: one row per
 * protocol stage in the protocol's order, then {@code EXECUTE} (workload logic) when it ran. A row's
 * share is its total time over the total time of all rows.
 */
public final class StageBreakdown {
    /** Name of the row for {@link RunResult#execute}. */
    public static final String EXECUTE = "EXECUTE";

    /** One stage: durations in ns; share in [0, 1]. */
    public record Row(String stage, long count, double meanNs, double p50Ns, double p99Ns, long totalNs, double share) {
        /**
         * What the stage adds to a committed transaction, ns: its total time (aborted attempts included) over the
         * commits, i.e. mean x count / commits (RCC Fig. 13's stacking); 0 without commits.
         */
        public double perTxnNs(long commits) { return commits <= 0 ? 0 : (double) totalNs / commits; }
    }

    private StageBreakdown() {}

    public static List<Row> of(RunResult r) {
        List<String> names = new ArrayList<>();
        List<Histogram> hists = new ArrayList<>();
        for (Map.Entry<Stage, Histogram> e : r.stages.entrySet()) {
            names.add(e.getKey().name());
            hists.add(e.getValue());
        }
        if (r.execute.count() > 0) {
            names.add(EXECUTE);
            hists.add(r.execute);
        }
        long total = 0;
        for (Histogram h : hists) total += h.sum();
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            Histogram h = hists.get(i);
            double share = total == 0 ? 0 : (double) h.sum() / total;
            rows.add(new Row(names.get(i), h.count(), h.mean(), h.quantile(0.50), h.quantile(0.99), h.sum(), share));
        }
        return rows;
    }
}
