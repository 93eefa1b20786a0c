package org.rccj.framework.runtime;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.history.HistoryRecord;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.PathTotals;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.primitives.Counters;

/** What one worker measured. Thread-confined; merged after the run. */
public final class WorkerStats implements java.io.Serializable {
    /** The parts of a committed transaction's time outside the stages that a worker measures, in their order. */
    public static final List<String> OUTSIDE_PARTS = List.of("execute", "between_stages", "aborted_attempts", "backoff");

    private static final long serialVersionUID = 1L;
    long warmEnd, end;
    /** When the run started (the protocols' time origin, {@code CoroutineContext.runStart}); fabric clock, ns. */
    long runStart;
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
     * Of the transactions committed in the measured interval, summed: their stage time (every attempt) and their
     * time outside the stages by part ({@link #OUTSIDE_PARTS}, in that order), ns. Per worker, never shared.
     */
    long committedStageNs, rolledBackStageNs;
    final long[] outsideNs = new long[OUTSIDE_PARTS.size()];
    /** Critical paths of the ops waited for in the measured interval, per stage (sim only; see {@link PathTotals}). */
    final PathTotals paths = new PathTotals();

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
        Histogram sink = shareWith == null ? new Histogram() : shareWith.stagesBy[OUT][0];
        TxnTypeStats[] outTypes = new TxnTypeStats[types];
        for (int i = 0; i < types; i++) outTypes[i] = new TxnTypeStats(sink);
        Histogram[] outStages = new Histogram[stages.length];
        java.util.Arrays.fill(outStages, sink);
        typesBy = new TxnTypeStats[][] {outTypes, perType};
        stagesBy = new Histogram[][] {outStages, stages};
        executeBy = new Histogram[] {sink, execute};
        reasonsBy = List.of(new LinkedHashMap<>(), abortReasons);
        pathsBy = new PathTotals[] {new PathTotals(), paths};
    }

    /*
     * What falls outside the measured interval is recorded as well, into these sinks, and dropped: recording then
     * takes no branch on the interval. A branch that one side never took during the warm-up is compiled as a trap by
     * the JIT, which fires at the warm-up's end in every method that inlined it (the simulator's whole loop) and has
     * them compiled again, in the middle of the run (decision 0196). Indexed by measured(t): OUT or IN.
     */
    private static final int OUT = 0;
    private final transient TxnTypeStats[][] typesBy;
    private final transient Histogram[][] stagesBy;
    private final transient Histogram[] executeBy;
    private final transient List<Map<String, long[]>> reasonsBy;
    private final transient PathTotals[] pathsBy;

    /** Keeps what the merge needs from the worker once it stopped, so stats travel without their worker (tcp). */
    void seal(Counters counters, long busy, long hits, long misses) {
        finalCounters.reset();
        finalCounters.add(counters);
        finalBusy = busy;
        cacheHits = hits;
        cacheMisses = misses;
    }

    /**
     * 1 when {@code t} is in the measured interval {@code [warmEnd, end)}, else 0, computed without a branch (see the
     * sinks above): both differences keep their sign for times and bounds within 2^62 ns of each other.
     */
    int measured(long t) { return (int) (~((t - warmEnd) | (end - 1 - t)) >>> 63); }

    /** Where the critical paths of waits at {@code t} are summed ({@link #paths} inside the measured interval). */
    PathTotals paths(long t) { return pathsBy[measured(t)]; }

    void stage(Stage s, long start, long stop) {
        stagesBy[measured(start)][s.ordinal()].record(stop - start);
    }

    void execute(long start, long stop) {
        executeBy[measured(start)].record(stop - start);
    }

    private long committedTotal;

    /** Commits over the whole run, warm-up and drain included. */
    public long committedTotal() { return committedTotal; }

    /** A commit at {@code at} of a transaction first started at {@code firstStart}, with its stage time and outside parts (ns). */
    void commit(int type, long firstStart, long at, long stageNs, long[] outside) {
        committedTotal++;
        int in = measured(at);
        committedStageNs += stageNs * in;
        for (int i = 0; i < outside.length; i++) outsideNs[i] += outside[i] * in;
        TxnTypeStats s = typesBy[in][type];
        s.commits++;
        s.latency.record(at - firstStart);
        int b = (int) ((at - warmEnd) * timeline.length / Math.max(1, end - warmEnd));
        timeline[Math.min(timeline.length - 1, Math.max(0, b))] += in;
    }

    /** When this worker's measured window started (fabric clock, ns; {@link WindowGate#CLOSED} if it never did). */
    public long windowStart() { return warmEnd; }
    /** When the run started (fabric clock, ns). */
    public long runStart() { return runStart; }

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

    public long committedStageNs() { return committedStageNs; }
    public PathTotals paths() { return paths; }
    public long rolledBackStageNs() { return rolledBackStageNs; }
    /** Time outside the stages per part ({@link #OUTSIDE_PARTS}' order), ns. */
    public long[] outsideNs() { return outsideNs; }

    /** @param stageNs a rolled-back transaction's stage time (every attempt), ns */
    void abort(int type, String reason, boolean logic, long at, long stageNs) {
        int in = measured(at);
        if (logic) {
            typesBy[in][type].rolledBack++;
            rolledBackStageNs += stageNs * in;
            return;
        }
        typesBy[in][type].aborts++;
        reasonsBy.get(in).computeIfAbsent(reason, r -> new long[1])[0]++;
    }
}
