package org.rccj.framework.api;

import org.rccj.framework.txn.Tx;

/** The LOG stage every protocol shares (the framework's coordinator log; {@link ClusterView#log()}). */
public interface CommitLog {
    /** Runs the LOG stage for {@code tx} with the log-clean message: {@link #append(CoroutineContext, Tx, boolean, boolean)}. */
    default void append(CoroutineContext ctx, Tx tx, boolean oneSided) { append(ctx, tx, oneSided, true); }

    /**
     * Runs the LOG stage for {@code tx} (one-sided WRITEs or RPCs): returns once every backup holds the redo entry
     * and, with {@code clean}, the log-clean message has gone to the same targets.
     */
    void append(CoroutineContext ctx, Tx tx, boolean oneSided, boolean clean);
}
