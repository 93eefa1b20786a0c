package org.rccj.framework.txn;

import org.rccj.framework.runtime.CoroutineContext;

/**
 * A protocol's per-coroutine engine: it fetches what the workload asks for, commits, and cleans up
 * after an abort. One instance per coroutine, reused for every transaction.
 */
public abstract class TxnExecutor {
    protected final CoroutineContext ctx;

    protected TxnExecutor(CoroutineContext ctx) { this.ctx = ctx; }

    /** Called at the start of every attempt. */
    public void begin(Tx tx) {}

    /** Fetches accesses {@code [from, to)} of {@code tx} (the protocol's READ and/or LOCK stages). */
    public abstract void fetch(Tx tx, int from, int to);

    /** Runs the remaining stages; throws {@link AbortException} to abort. */
    public abstract void commit(Tx tx);

    /** After an abort: releases whatever the attempt still holds. */
    public abstract void abort(Tx tx);

    /**
     * The workload's logic spends {@code ns} of CPU ({@link Tx#compute}). Charged to this coroutine's core; a protocol
     * whose coordinator only re-runs logic that others execute for the database (CALVIN) may decline.
     */
    public void compute(Tx tx, long ns) { ctx.ep.compute(ns); }
}
