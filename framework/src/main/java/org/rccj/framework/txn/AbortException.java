package org.rccj.framework.txn;

/**
 * Thrown to abort the current transaction attempt. Preallocated per reason: aborts are frequent and
 * must not allocate or fill stack traces.
 */
public final class AbortException extends RuntimeException {
    public final String reason;
    /** A workload-logic abort (e.g. insufficient funds): the transaction is final, not retried. */
    public final boolean logic;

    public AbortException(String reason, boolean logic) {
        super(reason, null, false, false);
        this.reason = reason;
        this.logic = logic;
    }

    /** Concurrency-control abort with a reason that names the conflict (retried). */
    public static AbortException conflict(String reason) { return new AbortException(reason, false); }

    public static final AbortException LOGIC = new AbortException("logic", true);
}
