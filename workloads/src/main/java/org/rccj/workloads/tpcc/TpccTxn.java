package org.rccj.workloads.tpcc;

import java.util.SplittableRandom;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Tx;

/**
 * One TPC-C transaction type of one coroutine: {@link #pick} draws its inputs (clause 2.x.1), {@link #execute}
 * runs its logic on a transaction and may run again for a retry, {@link #committed} accounts for what a
 * committed run did. Inputs, handles and scratch are fields, reused for every transaction.
 *
 * <p>Values read before the protocol validated them may be inconsistent with each other (optimistic
 * protocols); the logic then throws {@link #INCONSISTENT} (a retried conflict abort) instead of acting on
 * them, and never takes a logic rollback on them.
 */
abstract class TpccTxn {
    /** The transaction read a combination of values no committed state has (retried). */
    static final AbortException INCONSISTENT = AbortException.conflict("tpcc_inconsistent_read");

    final Tpcc wl;
    final Keys k;
    final CoroutineContext ctx;
    final SplittableRandom rng;
    final TpccGenerator gen;

    TpccTxn(TpccGenerator gen) {
        this.gen = gen;
        this.wl = gen.wl;
        this.k = wl.keys;
        this.ctx = gen.ctx;
        this.rng = ctx.rng;
    }

    abstract void pick(int home);

    abstract void execute(Tx tx);

    void committed(Tx tx) {}

    int uniform(int lo, int hi) { return NuRand.uniform(rng, lo, hi); }

    /** A date for O_ENTRY_D / OL_DELIVERY_D: the coordinator's clock (virtual on sim), never 0 (= null). */
    long date() { return Math.max(1, ctx.now()); }

    /** Clause 2.5.2.2: the customer at position ceil(n / 2) of the by-last-name list (sorted by C_FIRST). */
    long middleCustomer(Tx tx, int indexHandle) {
        long n = tx.get(indexHandle, Schema.CustomerByLastName.COUNT);
        if (n < 1 || n > wl.maxIdsPerLastName) throw new IllegalStateException("by-last-name index row with " + n + " customers");
        return tx.get(indexHandle, Schema.CustomerByLastName.idAt((int) ((n + 1) / 2 - 1)));
    }
}
