package org.rccj.framework.stats;

/** Commits, aborts and latency of one transaction type (or of all). */
public final class TxnTypeStats implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    public long commits;
    /** Concurrency-control aborts (each retried). */
    public long aborts;
    /** Transactions the workload's logic rolled back (e.g. insufficient funds): final, not retried, not commits. */
    public long rolledBack;
    /** Commit latency (first attempt to commit, including retries), ns. */
    public final Histogram latency;

    public TxnTypeStats() { this(new Histogram()); }

    /** With {@code latency} as its latency histogram (one several stats may share: see {@link #addCounts}). */
    public TxnTypeStats(Histogram latency) { this.latency = latency; }

    public void add(TxnTypeStats o) {
        addCounts(o);
        latency.add(o.latency);
    }

    /** Adds {@code o}'s counts but not its latency histogram (for a merge that adds each shared histogram once). */
    public void addCounts(TxnTypeStats o) {
        commits += o.commits;
        aborts += o.aborts;
        rolledBack += o.rolledBack;
    }
}
