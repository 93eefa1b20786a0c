package org.rccj.framework.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.run.StatsCollector;
import org.rccj.framework.stats.Histogram;

/**
 * Workers of a one-thread fabric record into one set of latency histograms; the merge must add each shared
 * histogram once, so the results equal those of per-worker histograms.
 */
class SharedHistogramsTest {
    private static final List<String> TYPES = List.of("a", "b");
    private static final List<Stage> STAGES = List.of(Stage.READ, Stage.LOCK, Stage.COMMIT);

    private static RunResult run(boolean share) {
        WorkerStats[][] w = new WorkerStats[2][3];
        WorkerStats first = null;
        Random rnd = new Random(7);
        for (int n = 0; n < 2; n++) {
            for (int t = 0; t < 3; t++) {
                w[n][t] = new WorkerStats(TYPES.size(), 1_000, 1_000_000, 4, false, share ? first : null);
                if (first == null) first = w[n][t];
                w[n][t].seal(new org.rccj.primitives.Counters(), 0, 0, 0);
            }
        }
        if (share) assertSame(w[0][0].stages[Stage.READ.ordinal()], w[1][2].stages[Stage.READ.ordinal()]);
        for (int i = 0; i < 5_000; i++) {
            WorkerStats s = w[rnd.nextInt(2)][rnd.nextInt(3)];
            long start = rnd.nextInt(1_100_000);
            s.stage(STAGES.get(rnd.nextInt(STAGES.size())), start, start + rnd.nextInt(1 << (1 + rnd.nextInt(20))));
            s.execute(start, start + rnd.nextInt(5_000));
            s.commit(rnd.nextInt(TYPES.size()), start, start + rnd.nextInt(50_000), rnd.nextInt(1000), new long[RunResult.OUTSIDE_PARTS.size()]);
        }
        RunResult r = new RunResult();
        StatsCollector.collect(w, TYPES, STAGES, 1e6, r);
        return r;
    }

    private static String describe(Histogram h) {
        return h.count() + "/" + h.sum() + "/" + h.min() + "/" + h.max() + "/" + h.quantile(0.5) + "/" + h.quantile(0.99);
    }

    @Test
    void sharedHistogramsMergeToTheSameResults() {
        RunResult own = run(false), shared = run(true);
        assertEquals(own.total.commits, shared.total.commits);
        assertEquals(describe(own.total.latency), describe(shared.total.latency));
        for (String t : TYPES) assertEquals(describe(own.perType.get(t).latency), describe(shared.perType.get(t).latency), t);
        for (Stage s : STAGES) assertEquals(describe(own.stages.get(s)), describe(shared.stages.get(s)), s.name());
        assertEquals(describe(own.execute), describe(shared.execute));
        assertEquals(own.stages.get(Stage.READ).toHdr(), shared.stages.get(Stage.READ).toHdr());
    }
}
