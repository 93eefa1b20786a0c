package org.rccj.framework.api;

import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxEngine;

/**
 * A protocol's per-coroutine engine: it fetches what the workload asks for, commits, and cleans up
 * after an abort. One instance per coroutine, reused for every transaction.
 */
public abstract class TxnExecutor implements TxEngine {
    protected final CoroutineContext ctx;

    protected TxnExecutor(CoroutineContext ctx) { this.ctx = ctx; }

    /** Called at the start of every attempt. */
    @Override public void begin(Tx tx) {}

    /** Fetches accesses {@code [from, to)} of {@code tx} (the protocol's READ and/or LOCK stages). */
    @Override public abstract void fetch(Tx tx, int from, int to);

    /** Runs the remaining stages; throws {@link AbortException} to abort. */
    public abstract void commit(Tx tx);

    /** After an abort: releases whatever the attempt still holds. */
    public abstract void abort(Tx tx);

    /**
     * Whether this coroutine pays for the workload logic it runs ({@link #compute}, {@link #logic}): yes, unless a
     * protocol's coordinator only re-runs logic that others execute for the database (CALVIN).
     */
    protected boolean paysForLogic(Tx tx) { return true; }

    /** The workload's logic spends {@code ns} of CPU ({@link Tx#compute}): modelled on sim, spun on real fabrics. */
    @Override public final void compute(Tx tx, long ns) { if (paysForLogic(tx)) ctx.compute(ns); }

    /**
     * The modelled CPU time of the workload's own logic for this transaction ({@link Tx#chargeLogic}, the profile's
     * {@code logic_ns.*}): charged on sim, nothing on real fabrics, where the logic really ran.
     */
    @Override public final void logic(Tx tx, long ns) { if (ns > 0 && paysForLogic(tx)) ctx.charge(ns); }
}
