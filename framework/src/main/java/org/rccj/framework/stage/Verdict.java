package org.rccj.framework.stage;

import org.rccj.framework.txn.AbortException;

/**
 * The decision rule of a stage that acts on many tuples at once: keep the first failure, decide only
 * after every reply is in (so every lock the attempt took is known to the RELEASE that follows an abort),
 * then throw it. One per stage instance; {@link #reset} at the start of each run.
 */
public final class Verdict {
    private AbortException failure;

    public void reset() { failure = null; }

    /** Records {@code e} unless an earlier failure is already kept. */
    public void fail(AbortException e) { if (failure == null) failure = e; }

    public boolean failed() { return failure != null; }

    /** Throws the first failure, if any. */
    public void check() { if (failure != null) throw failure; }
}
