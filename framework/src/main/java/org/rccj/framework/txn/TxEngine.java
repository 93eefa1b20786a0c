package org.rccj.framework.txn;

/**
 * What a {@link Tx} asks of the protocol that runs it: start an attempt, fetch what the workload added, and pay for
 * the workload's own CPU work. A protocol's executor ({@code api.TxnExecutor}) is the one implementation.
 */
public interface TxEngine {
    /** Called at the start of every attempt. */
    void begin(Tx tx);

    /** Fetches accesses {@code [from, to)} of {@code tx} (the protocol's READ and/or LOCK stages). */
    void fetch(Tx tx, int from, int to);

    /** The workload's logic spends {@code ns} of CPU ({@link Tx#compute}). */
    void compute(Tx tx, long ns);

    /** The modelled CPU time of the workload's own logic for this attempt ({@link Tx#chargeLogic}). */
    void logic(Tx tx, long ns);
}
