package org.rccj.framework.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.coro.Coroutine;
import org.rccj.framework.stats.PathTotals;
import org.rccj.framework.store.LocationCache;
import org.rccj.framework.store.Table;
import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;

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
    private final Op timerOp = new Op();
    /**
     * Critical paths (sim: the fabric marks them, {@link org.rccj.primitives.CriticalPath}): the time of this wait's
     * first post (-1: none since the last wait), the op whose completion ended the wait, the sums since the stage began.
     */
    private final boolean paths;
    private long waitStart = -1;
    private Op lastOp;
    private final PathBuffer pathBuffer;

    WorkerCoroutine(CoroutineWorker worker, int index, int globalId, long seed) {
        super(worker.node, index, globalId, seed, worker.ep.profile());
        this.worker = worker;
        this.ep = worker.ep;
        this.cluster = worker.cluster;
        timerOp.owner = this;
        paths = cluster.virtualTime();
        pathBuffer = paths ? new PathBuffer() : null;
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
        if (worker.stats.measuring(ep.now())) {
            if (hit) worker.cacheHits++; else worker.cacheMisses++;
        }
        return hit ? off : -1;
    }
    /** When the run ends on this worker's clock: no new transaction starts after it. */
    @Override public long endTime() { return worker.stats.end; }
    /** When the measured interval starts on this worker's clock. */
    @Override public long measureStart() { return worker.stats.warmEnd; }
    @Override public long now() { return ep.now(); }
    /** Modelled CPU cost of bookkeeping (sim only). */
    @Override public void charge(long ns) { ep.charge(ns); }
    @Override public int nodes() { return cluster.nodes(); }
    @Override public long tupleOpNs() { return cost.tupleOpNs; }
    @Override public long logicNs(int type) { return cluster.logicNs(type); }
    @Override public void compute(long ns) { ep.compute(ns); }
    @Override public boolean passiveRpc() { return ep.passiveRpc(); }

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
        Op o = new Op();
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
            for (int k = 0; k < g; k++) if (group[k].signaled) pending++;
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
        if (paths) startPaths(op);
        ep.post(op);
    }

    /** The ops' critical paths start at this wait's first post. */
    private void startPaths(Op[] ops, int n) {
        for (int k = 0; k < n; k++) startPaths(ops[k]);
    }

    private void startPaths(Op op) {
        if (waitStart < 0) waitStart = ep.now();
        op.pathStart(waitStart);
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
        if (op == null || start < 0 || op == timerOp || op.pathSet == 0) return;
        long now = ep.now();
        op.mark(suspended ? CriticalPath.RESUME_WAIT : CriticalPath.LOCAL_CPU, now);
        pathBuffer.add(op, now - start);
    }

    /** Yields until every signaled op posted so far has completed. */
    @Override
    public void await() {
        if (pending > 0) {
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
        if (paths) pathBuffer.flush(worker.stats.paths, PathTotals.OUTSIDE, worker.stats.measuring(now));
        return now;
    }

    @Override
    public void stageEnd(Stage s, long start) {
        long now = ep.now();
        worker.stats.stage(s, start, now);
        if (paths) pathBuffer.flush(worker.stats.paths, s.ordinal(), worker.stats.measuring(start));
        txStageNs += now - start;
    }

    /** Stage time of the current transaction so far, its aborted attempts included (TxnLoop resets it). */
    long txStageNs;
}
