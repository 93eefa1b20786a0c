package org.rccj.framework.runtime;

import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.coro.Coroutine;
import org.rccj.framework.history.HistoryRecord;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;

/**
 * The body of a transaction coroutine (a coordinator): pick a transaction, run it through the protocol,
 * retry concurrency aborts with exponential back-off, record statistics and history, until the end time.
 */
final class TxnLoop implements Coroutine.Step {
    private static final int MAX_BACKOFF_SHIFT = 6;
    private static final int YIELD_EVERY = 4;
    private int sinceYield;

    private final WorkerCoroutine ctx;
    private final TxnExecutor exec;
    private final TxnGenerator gen;
    private final WorkerStats stats;
    private final long backoffNs;
    private long seq;
    /** The current transaction's time outside the stages, by part (indexes into WorkerStats.OUTSIDE_PARTS). */
    private final long[] outside = new long[WorkerStats.OUTSIDE_PARTS.size()];
    private static final int EXECUTE = WorkerStats.OUTSIDE_PARTS.indexOf("execute"), BETWEEN = WorkerStats.OUTSIDE_PARTS.indexOf("between_stages"),
            ABORTED = WorkerStats.OUTSIDE_PARTS.indexOf("aborted_attempts"), BACKOFF = WorkerStats.OUTSIDE_PARTS.indexOf("backoff");

    TxnLoop(WorkerCoroutine ctx, TxnExecutor exec, TxnGenerator gen, long backoffNs) {
        this.ctx = ctx;
        this.exec = exec;
        this.gen = gen;
        this.stats = ctx.worker.stats;
        this.backoffNs = backoffNs;
        ctx.tx.executor(exec);
        ctx.tx.source = gen;
    }

    private long nextId() {
        return (++seq << 24) | ctx.globalId;
    }

    /**
     * One step of the coroutine: a transaction to its commit or final abort (concurrency aborts are retried
     * after a back-off); false once the end time has come.
     */
    @Override
    public boolean step() {
        long end = stats.end;
        if (ctx.now() >= end) return false;
        Tx tx = ctx.tx;
        int type = gen.next();
        long first = ctx.now();
        int attempt = 0;
        // the transaction's time, [first, commit], is its stage time (ctx.txStageNs, every attempt) plus the parts
        // of WorkerStats.OUTSIDE_PARTS: each attempt runs from attemptStart, each back-off from the attempt's end
        ctx.txStageNs = 0;
        java.util.Arrays.fill(outside, 0);
        long attemptStart = first;
        while (true) {
            tx.begin(nextId(), type);
            AbortException abort = null;
            long t0 = ctx.now(), stages0 = ctx.txStageNs, executeNs = 0;
            try {
                gen.execute(tx);
                tx.fetch();
                tx.chargeLogic();
                long executed = ctx.now() - tx.fetchNanos();
                stats.execute(t0, executed);
                executeNs = executed - t0;
                exec.commit(tx);
            } catch (AbortException a) {
                abort = a;
            }
            ctx.release();
            long now = ctx.now();
            if (abort == null) {
                outside[EXECUTE] += executeNs;
                outside[BETWEEN] += now - attemptStart - (ctx.txStageNs - stages0) - executeNs;
                stats.commit(type, first, now, ctx.txStageNs, outside);
                if (stats.history != null) stats.history.add(record(tx));
                gen.committed(tx);
                break;
            }
            exec.abort(tx);
            ctx.release();
            long aborted = ctx.now();
            outside[ABORTED] += aborted - attemptStart - (ctx.txStageNs - stages0);
            stats.abort(type, abort.reason, abort.logic, now, ctx.txStageNs);
            if (abort.logic || ctx.now() >= end) break;
            long max = backoffNs << Math.min(attempt++, MAX_BACKOFF_SHIFT);
            if (max > 0) ctx.sleep(1 + ctx.rng.nextLong(max));
            else ctx.yieldNow();
            attemptStart = ctx.now();
            outside[BACKOFF] += attemptStart - aborted;
        }
        // between transactions, let the worker's other coroutines and its event loop (RPCs for this
        // worker) in: always when another coroutine is ready, and at least every few transactions (on
        // real fabrics one-sided ops complete inline, so a coroutine might otherwise never yield)
        if (ctx.worker.hasReady() || ++sinceYield >= YIELD_EVERY) {
            sinceYield = 0;
            ctx.yieldNow();
        }
        return true;
    }

    private HistoryRecord record(Tx tx) {
        int reads = 0, writes = 0;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.needsValue) reads++;
            if (a.write) writes++;
        }
        long[] r = new long[3 * reads];
        long[] w = new long[4 * writes];
        int ri = 0, wi = 0;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.needsValue) {
                r[ri++] = a.table.id;
                r[ri++] = a.key;
                r[ri++] = a.version;
            }
            if (a.write) {
                w[wi++] = a.table.id;
                w[wi++] = a.key;
                w[wi++] = tx.id;
                w[wi++] = a.prevVersion;
            }
        }
        return new HistoryRecord(tx.id, ctx.worker.typeName(tx.type), r, w);
    }
}
