package org.rccj.framework.spi;

import org.rccj.framework.txn.Tx;

/**
 * Generates and runs one coroutine's transactions. {@link #next()} picks a transaction (type and
 * parameters, drawn from the coroutine's seeded random source); {@link #execute} runs its logic and may
 * be called several times for one pick (retries after aborts).
 */
public interface TxnGenerator {
    /** Picks the next transaction; returns its type index. */
    int next();

    /** Runs the picked transaction's logic on {@code tx}: add accesses, fetch, compute the writes. */
    void execute(Tx tx);

    /** The picked transaction committed (account for its effects, e.g. money deposited). */
    default void committed(Tx tx) {}
}
