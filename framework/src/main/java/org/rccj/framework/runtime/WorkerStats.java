package org.rccj.framework.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.history.HistoryRecord;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.primitives.Counters;

/** What one worker measured. Thread-confined; merged after the run. */
public final class WorkerStats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    long warmEnd, end;
    final TxnTypeStats[] perType;
    final Map<String, long[]> abortReasons = new LinkedHashMap<>();
    final Histogram[] stages = new Histogram[Stage.values().length];
    final Histogram execute;
    final long[] timeline;
    final Counters warmCounters = new Counters(), endCounters = new Counters();
    long warmBusy = -1, endBusy = -1;
    boolean warmMarked, endMarked;
    /** The worker's counters, busy time and location-cache hits when the run ended (see {@link #seal}). */
    final Counters finalCounters = new Counters();
    long finalBusy = -1, cacheHits, cacheMisses;
    final List<HistoryRecord> history;

    /**
     * @param shareWith null, or stats of another worker on the same thread whose latency histograms (stages,
     *                  execute, per-type latency) this worker records into too: on a fabric that runs every
     *                  worker on one thread, one set of histograms instead of hundreds keeps them in the CPU's
     *                  caches; the merge ({@code run.StatsCollector}) adds each histogram once, so results are the same
     */
    WorkerStats(int types, long warmEnd, long end, int timelineBuckets, boolean recordHistory, WorkerStats shareWith) {
        this.warmEnd = warmEnd;
        this.end = end;
        perType = new TxnTypeStats[types];
        for (int i = 0; i < types; i++) perType[i] = new TxnTypeStats(shareWith == null ? new Histogram() : shareWith.perType[i].latency);
        for (int i = 0; i < stages.length; i++) stages[i] = shareWith == null ? new Histogram() : shareWith.stages[i];
        execute = shareWith == null ? new Histogram() : shareWith.execute;
        timeline = new long[timelineBuckets];
        history = recordHistory ? new ArrayList<>() : null;
    }

    /** Keeps what the merge needs from the worker once it stopped, so stats travel without their worker (tcp). */
    void seal(Counters counters, long busy, long hits, long misses) {
        finalCounters.reset();
        finalCounters.add(counters);
        finalBusy = busy;
        cacheHits = hits;
        cacheMisses = misses;
    }

    boolean measuring(long t) { return t >= warmEnd && t < end; }

    void stage(Stage s, long start, long stop) {
        if (measuring(start)) stages[s.ordinal()].record(stop - start);
    }

    void execute(long start, long stop) {
        if (measuring(start)) execute.record(stop - start);
    }

    private long committedTotal;

    /** Commits over the whole run, warm-up and drain included. */
    public long committedTotal() { return committedTotal; }

    void commit(int type, long firstStart, long at) {
        committedTotal++;
        if (!measuring(at)) return;
        TxnTypeStats s = perType[type];
        s.commits++;
        s.latency.record(at - firstStart);
        int b = (int) ((at - warmEnd) * timeline.length / Math.max(1, end - warmEnd));
        timeline[Math.min(timeline.length - 1, Math.max(0, b))]++;
    }

    // read by the merge (run.StatsCollector) once the worker stopped
    public TxnTypeStats perType(int type) { return perType[type]; }
    public Map<String, long[]> abortReasons() { return abortReasons; }
    /** The durations of stage {@code s} (a histogram shared with the thread's other workers, see the constructor). */
    public Histogram stageTimes(Stage s) { return stages[s.ordinal()]; }
    public Histogram executeTimes() { return execute; }
    public long[] timeline() { return timeline; }
    /** The counters at the start of the measured interval. */
    public Counters warmCounters() { return warmCounters; }
    /** The counters at its end (or when the worker stopped, if that came first). */
    public Counters endCounters() { return endMarked ? endCounters : finalCounters; }
    /** Busy time at the start of the measured interval, ns (-1 unknown). */
    public long warmBusy() { return warmBusy; }
    /** Busy time at its end (or when the worker stopped, if that came first), ns (-1 unknown). */
    public long endBusy() { return endMarked ? endBusy : finalBusy; }
    public long cacheHits() { return cacheHits; }
    public long cacheMisses() { return cacheMisses; }
    /** The committed transactions, when the run records its history; else null. */
    public List<HistoryRecord> history() { return history; }

    void abort(int type, String reason, boolean logic, long at) {
        if (!measuring(at)) return;
        if (logic) {
            perType[type].rolledBack++;
            return;
        }
        perType[type].aborts++;
        abortReasons.computeIfAbsent(reason, r -> new long[1])[0]++;
    }
}
