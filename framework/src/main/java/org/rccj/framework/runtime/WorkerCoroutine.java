package org.rccj.framework.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.coro.Coroutine;
import org.rccj.framework.stats.PathTotals;
import org.rccj.framework.store.LocationCache;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.PathTrace;

/**
 * The runtime's {@link CoroutineContext}: a coroutine of a {@link CoroutineWorker}, with its own op pool, doorbell batches
 * grouped by destination, waiting for completions (it yields), timers, and stage timers.
 */
public final class WorkerCoroutine extends CoroutineContext {
    final CoroutineWorker worker;
    private final Endpoint ep;
    private final Cluster cluster;
    Coroutine coroutine;

    private int pending;
    private boolean waiting;
    private final ArrayList<Op> pool = new ArrayList<>();
    private int cursor;
    private Op[] queued = new Op[32];
    private int queuedCount;
    private Op[] group = new Op[32];
    private final Op timerOp;
    /**
     * Critical paths (sim: the fabric marks them, {@link org.rccj.primitives.CriticalPath}; null when the fabric traces
     * none, sim.critical_path false included): the time of this wait's first post (-1: none since the last wait), the op
     * whose completion ended the wait, the sums since the stage began.
     */
    private final PathTrace trace;
    private final boolean paths;
    private long waitStart = -1;
    private Op lastOp;
    private final PathBuffer pathBuffer;

    WorkerCoroutine(CoroutineWorker worker, int index, int globalId, long seed) {
        super(worker.node, index, globalId, seed, worker.ep.profile());
        this.worker = worker;
        this.ep = worker.ep;
        this.cluster = worker.cluster;
        timerOp = ep.newOp();
        timerOp.owner = this;
        trace = cluster.fabric.capability(PathTrace.class).orElse(null);
        paths = trace != null;
        pathBuffer = paths ? new PathBuffer(trace) : null;
    }

    @Override public CoroutineWorker worker() { return worker; }
    @Override public Cluster cluster() { return cluster; }
    @Override public LocationCache cache() { return worker.cache; }

    /**
     * Cached tuple offset of a key, or -1: a miss, or an entry that is not a tuple boundary of the table
     * (torn by a concurrent update). Counts hits and misses for the results.
     */
    @Override
    public long cachedLocation(Table t, long key) {
        long off = worker.cache.get(t.id, key);
        boolean hit = off >= 0 && t.validTupleOffset(off);
        int in = worker.stats.measured(ep.now());     // no branch on the interval (WorkerStats' sinks)
        if (hit) worker.cacheHits += in; else worker.cacheMisses += in;
        return hit ? off : -1;
    }
    /** When the run ends on this worker's clock: no new transaction starts after it. */
    @Override public long endTime() { return worker.stats.end; }
    /** When the measured interval starts on this worker's clock. */
    @Override public long measureStart() { return worker.stats.warmEnd; }
    @Override public long runStart() { return worker.stats.runStart; }
    @Override public long now() { return ep.now(); }
    /** Modelled CPU cost of bookkeeping (sim only). */
    @Override public void charge(long ns) { ep.charge(ns); }
    @Override public int nodes() { return cluster.nodes(); }
    @Override public long tupleOpNs() { return cost.tupleOpNs; }
    @Override public long logicNs(int type) { return cluster.logicNs(type); }
    @Override public void compute(long ns) { ep.compute(ns); }
    @Override public boolean passiveRpc() { return ep.passiveRpc(); }
    @Override public boolean fetchOneByOne() { return cluster.fetchOneByOne; }

    /** A free op from this coroutine's pool (not in flight, not taken since the last release). */
    @Override
    public Op op() {
        ArrayList<Op> p = pool;
        for (int i = cursor, n = p.size(); i < n; i++) {
            Op o = p.get(i);
            if (!o.inFlight) {
                if (i != cursor) { p.set(i, p.get(cursor)); p.set(cursor, o); }
                cursor++;
                o.signaled = true;
                return o;
            }
        }
        Op o = ep.newOp();
        o.owner = this;
        p.add(o);
        if (p.size() - 1 != cursor) { p.set(p.size() - 1, p.get(cursor)); p.set(cursor, o); }
        cursor++;
        return o;
    }

    /** Makes every op taken so far reusable once it is no longer in flight. */
    @Override
    public void release() { cursor = 0; }

    /** Queues an op for the next {@link #flush()}. */
    @Override
    public void add(Op op) {
        if (queuedCount == queued.length) queued = Arrays.copyOf(queued, queuedCount * 2);
        queued[queuedCount++] = op;
    }

    /**
     * Posts the queued ops: one doorbell batch per destination node (in order of first appearance, each
     * batch in queuing order). Does not wait. A one-sided op that would be the 64th unsignaled WR in a row on
     * the worker's queue pair to its node goes signaled (send-queue flow control, {@link CoroutineWorker#flowControl}).
     */
    @Override
    public void flush() {
        int n = queuedCount;
        for (int i = 0; i < n; i++) {
            Op first = queued[i];
            if (first == null) continue;
            int dst = first.node;
            int g = 0;
            for (int j = i; j < n; j++) {
                Op o = queued[j];
                if (o != null && o.node == dst && o.verb.oneSided == first.verb.oneSided) {
                    if (g == group.length) group = Arrays.copyOf(group, g * 2);
                    group[g++] = o;
                    queued[j] = null;
                }
            }
            if (first.verb.oneSided) worker.flowControl(group, g);
            for (int k = 0; k < g; k++) {
                if (group[k].signaled) pending++;
                posted(group[k]);
            }
            if (paths) startPaths(group, g);
            if (first.verb.oneSided) {
                ep.post(group, g);
            } else {
                for (int k = 0; k < g; k++) ep.post(group[k]);
            }
        }
        queuedCount = 0;
    }

    /** Posts one op right away (its own doorbell). */
    @Override
    public void post(Op op) {
        if (op.signaled) pending++;
        posted(op);
        if (paths) startPaths(op);
        ep.post(op);
    }

    /**
     * The artifact's framework around a posted op (profile {@code framework.*}, docs/calibration.md): a signaled
     * one-sided op is an entry of the worker's pending-QP list until it completes (polled once per pass); every 64th
     * UD send polls the send CQ synchronously. Also notes which transport a fetch used ({@link #fetchEnd}).
     */
    private void posted(Op op) {
        if (op.verb.oneSided) {
            if (op.signaled) worker.pendingQps++;
            fetchOneSidedOps++;
        } else {
            fetchRpcOps++;
            worker.udSent();
        }
    }

    /** Ops posted since the fetch began, by transport; the transport the last fetch used (-1: none yet, 0 RPC, 1 one-sided). */
    private int fetchOneSidedOps, fetchRpcOps, fetchBinding = -1;

    /**
     * A fetch of {@code items} accesses ({@code remote} of them on other nodes) begins: the artifact's per-item work
     * around its stage calls (framework.*): six rdtsc of the stage timers per item, and per remote item its buffer,
     * Rmalloc/Rfree one-sided or malloc/free and the batch's std::set insert by RPC. The transport is the one the
     * coroutine's fetches use (known after its first fetch, which is charged at its end instead).
     */
    @Override
    public void fetchBegin(Tx tx, int from, int to) {
        fetchOneSidedOps = fetchRpcOps = 0;
        if (fetchBinding >= 0) chargeItems(tx, from, to, fetchBinding == 1);
    }

    @Override
    public void fetchEnd(Tx tx, int from, int to) {
        int b = fetchOneSidedOps == 0 && fetchRpcOps == 0 ? -1 : fetchOneSidedOps >= fetchRpcOps ? 1 : 0;
        if (b < 0) return;
        if (fetchBinding < 0) chargeItems(tx, from, to, b == 1);
        fetchBinding = b;
    }

    private void chargeItems(Tx tx, int from, int to, boolean oneSided) {
        long perRemote = oneSided ? cost.fwRmallocNs : cost.fwRpcItemNs, perItem = CostProfile.RDTSC_PER_ITEM * cost.fwRdtscNs;
        if (perRemote == 0 && perItem == 0) return;
        long ns = (to - from) * perItem;
        for (int i = from; i < to; i++) if (tx.access(i).node != node) ns += perRemote;
        if (ns > 0) ep.charge(ns);
    }

    /** The ops' critical paths start at this wait's first post. */
    private void startPaths(Op[] ops, int n) {
        for (int k = 0; k < n; k++) startPaths(ops[k]);
    }

    private void startPaths(Op op) {
        if (waitStart < 0) waitStart = ep.now();
        trace.start(op, waitStart);
    }

    /**
     * The wait that began at this wait's first post ended now: the op that completed last carries it all (its path,
     * to its poll, plus the time until this coroutine ran again: {@code resume_wait}; or, when nothing had to be
     * waited for, its local shortcut: {@code local_cpu}). Timers (sleep) are no ops: not counted.
     */
    private void endWait(boolean suspended) {
        Op op = lastOp;
        long start = waitStart;
        lastOp = null;
        waitStart = -1;
        if (op == null || start < 0 || op == timerOp || trace.terms(op) == 0) return;
        long now = ep.now();
        trace.mark(op, suspended ? CriticalPath.RESUME_WAIT : CriticalPath.LOCAL_CPU, now);
        pathBuffer.add(op, now - start);
    }

    /** Yields until every signaled op posted so far has completed. */
    @Override
    public void await() {
        if (pending > 0) {
            if (cost.fwSwitchNs > 0) ep.charge(cost.fwSwitchNs);   // the artifact's switch out (framework.switch_ns)
            waiting = true;
            Coroutine.suspend();
            if (paths) endWait(true);
        } else if (paths) {
            endWait(false);
        }
    }

    /** Yields for {@code ns} of this worker's clock. */
    @Override
    public void sleep(long ns) {
        pending++;
        ep.timer(timerOp, ep.now() + ns);
        await();
    }

    /** Lets the worker's other coroutines and its event loop run, then continues. */
    @Override
    public void yieldNow() {
        worker.ready.add(this);
        Coroutine.suspend();
    }

    void onComplete(Op op) {
        if (op != timerOp && op.verb.oneSided && op.signaled) worker.pendingQps--;
        if (--pending == 0) lastOp = op;
        if (waiting && pending == 0) {
            waiting = false;
            worker.ready.add(this);
        }
    }

    /** Start of a stage (use with {@link #stageEnd}). */
    @Override
    public long stageStart() {
        long now = ep.now();
        if (paths) pathBuffer.flush(worker.stats.paths(now), PathTotals.OUTSIDE);
        return now;
    }

    @Override
    public void stageEnd(Stage s, long start) {
        long now = ep.now();
        if (cutAt >= start) {
            // stage_timers: artifact: the stage's timer stopped at the cut; the rest is outside the stages
            long end = cutAt;
            cutAt = -1;
            worker.stats.stage(s, start, end);
            if (paths) pathBuffer.flush(worker.stats.paths(start), PathTotals.OUTSIDE);
            txStageNs += end - start;
            return;
        }
        cutAt = -1;
        worker.stats.stage(s, start, now);
        if (paths) pathBuffer.flush(worker.stats.paths(start), s.ordinal());
        txStageNs += now - start;
    }

    /** Where {@code stage_timers: artifact} stopped the open stage's timer ({@link #stageCut}), or -1. */
    private long cutAt = -1;

    @Override
    public void stageCut(Stage s) {
        if (!cluster.artifactStageTimers) return;
        long now = ep.now();
        cutAt = now;
        if (paths) pathBuffer.flush(worker.stats.paths(now), s.ordinal());
    }

    /** Stage time of the current transaction so far, its aborted attempts included (TxnLoop resets it). */
    long txStageNs;
}
