package org.rccj.framework.run;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rccj.framework.api.Stage;
import org.rccj.framework.history.HistoryRecord;
import org.rccj.framework.runtime.CoroutineWorker;
import org.rccj.framework.runtime.WorkerStats;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.primitives.Counters;

/** Merges every worker's measurements into a {@link RunResult}, in a fixed order (deterministic). */
public final class StatsCollector {
    private StatsCollector() {}

    public static void collect(CoroutineWorker[][] workers, List<String> types, List<Stage> stages, double measuredNs, RunResult r) {
        collect(stats(workers), types, stages, measuredNs, r);
    }

    /** Every worker's stats, {@code [node][worker]}; null rows for nodes another process ran. */
    public static WorkerStats[][] stats(CoroutineWorker[][] workers) {
        WorkerStats[][] s = new WorkerStats[workers.length][];
        for (int n = 0; n < workers.length; n++) {
            if (workers[n][0] == null) continue;
            s[n] = new WorkerStats[workers[n].length];
            for (int t = 0; t < s[n].length; t++) s[n][t] = workers[n][t].stats();
        }
        return s;
    }

    /** As {@link #collect(Worker[][], List, List, double, RunResult)} over sealed stats (every node's, after a tcp run). */
    public static void collect(WorkerStats[][] workers, List<String> types, List<Stage> stages, double measuredNs, RunResult r) {
        for (String t : types) r.perType.put(t, new TxnTypeStats());
        Histogram[] st = new Histogram[Stage.values().length];
        for (Stage s : stages) {
            st[s.ordinal()] = new Histogram();
            r.stages.put(s, st[s.ordinal()]);
        }
        int buckets = workers[0][0].timeline().length;
        r.timeline = new long[buckets];
        r.busyShare = new double[workers.length];
        // workers on one thread share their latency histograms (WorkerStats): each is added once
        Set<Histogram> merged = Collections.newSetFromMap(new IdentityHashMap<>());
        long hits = 0, misses = 0;
        for (WorkerStats[] ws : workers) for (WorkerStats w : ws) { hits += w.cacheHits(); misses += w.cacheMisses(); }
        if (hits + misses > 0) r.extra.put("location_cache_hit_rate", (double) hits / (hits + misses));
        for (int n = 0; n < workers.length; n++) {
            long busy = 0;
            boolean known = true;
            for (WorkerStats s : workers[n]) {
                for (int i = 0; i < types.size(); i++) {
                    TxnTypeStats t = r.perType.get(types.get(i));
                    TxnTypeStats w = s.perType(i);
                    t.addCounts(w);
                    r.total.addCounts(w);
                    if (merged.add(w.latency)) {
                        t.latency.add(w.latency);
                        r.total.latency.add(w.latency);
                    }
                }
                for (Map.Entry<String, long[]> e : s.abortReasons().entrySet()) {
                    r.abortReasons.merge(e.getKey(), e.getValue()[0], Long::sum);
                }
                for (Stage stage : stages) if (merged.add(s.stageTimes(stage))) st[stage.ordinal()].add(s.stageTimes(stage));
                if (merged.add(s.executeTimes())) r.execute.add(s.executeTimes());
                r.committedStageNs += s.committedStageNs();
                r.paths.add(s.paths());
                r.rolledBackStageNs += s.rolledBackStageNs();
                long[] outside = s.outsideNs();
                for (int i = 0; i < outside.length; i++) r.outsideNs[i] += outside[i];
                long[] timeline = s.timeline();
                for (int b = 0; b < buckets; b++) r.timeline[b] += timeline[b];
                Counters d = new Counters();
                d.add(s.endCounters());
                subtract(d, s.warmCounters());
                r.network.add(d);
                long endBusy = s.endBusy();
                if (endBusy < 0) known = false;
                busy += endBusy - Math.max(0, s.warmBusy());
            }
            r.busyShare[n] = known ? Math.min(1.0, busy / (measuredNs * workers[n].length)) : -1;
        }
    }

    private static void subtract(Counters a, Counters b) {
        a.read -= b.read; a.write -= b.write; a.cas -= b.cas; a.faa -= b.faa; a.rpc -= b.rpc;
        a.bytes -= b.bytes; a.doorbells -= b.doorbells; a.local -= b.local;
    }

    /** Every committed transaction of the run, ordered by id (deterministic). */
    public static List<HistoryRecord> history(CoroutineWorker[][] workers) {
        return history(stats(workers));
    }

    public static List<HistoryRecord> history(WorkerStats[][] workers) {
        List<HistoryRecord> all = new ArrayList<>();
        for (WorkerStats[] ws : workers) for (WorkerStats w : ws) if (w.history() != null) all.addAll(w.history());
        all.sort((a, b) -> Long.compare(a.txn(), b.txn()));
        return all;
    }
}
