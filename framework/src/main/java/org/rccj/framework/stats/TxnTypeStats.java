package org.rccj.framework.stats;

/** Commits, aborts and latency of one transaction type (or of all). */
public final class TxnTypeStats {
    public long commits, aborts;
    /** Commit latency (first attempt to commit, including retries), ns. */
    public final Histogram latency = new Histogram();

    public void add(TxnTypeStats o) {
        commits += o.commits;
        aborts += o.aborts;
        latency.add(o.latency);
    }
}
