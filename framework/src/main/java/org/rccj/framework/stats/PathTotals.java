package org.rccj.framework.stats;

import org.rccj.framework.api.Stage;
import org.rccj.primitives.CriticalPath;

/**
 * Critical paths of ops summed per stage (docs/decisions/0139-critical-path-split.md): per bucket (a {@link Stage}'s
 * ordinal, or {@link #OUTSIDE} for waits outside every stage) the waits ("calls"), their latency and each
 * {@link CriticalPath} term, ns, summed, so that the terms add up to the latency exactly; and one sampled call per
 * bucket (the first measured one of the first worker that has one, in merge order). Filled on {@code sim} only.
 */
public final class PathTotals implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    /** The bucket of waits outside every stage. */
    public static final int OUTSIDE = Stage.values().length;
    public static final String OUTSIDE_NAME = "outside_stages";
    public final long[][] ns = new long[OUTSIDE + 1][CriticalPath.COUNT];
    public final long[] calls = new long[OUTSIDE + 1], latencyNs = new long[OUTSIDE + 1];
    public final long[][] sample = new long[OUTSIDE + 1][];
    public final long[] sampleLatencyNs = new long[OUTSIDE + 1];

    /** Adds a wait's terms (summed over {@code n} calls) to {@code bucket}. */
    public void add(int bucket, long[] terms, long n, long latency) {
        long[] a = ns[bucket];
        for (int t = 0; t < a.length; t++) a[t] += terms[t];
        calls[bucket] += n;
        latencyNs[bucket] += latency;
    }

    /** Adds another worker's totals; its samples fill buckets that have none yet. */
    public void add(PathTotals o) {
        for (int b = 0; b <= OUTSIDE; b++) {
            add(b, o.ns[b], o.calls[b], o.latencyNs[b]);
            if (sample[b] == null && o.sample[b] != null) {
                sample[b] = o.sample[b].clone();
                sampleLatencyNs[b] = o.sampleLatencyNs[b];
            }
        }
    }

    /** True when some wait was recorded. */
    public boolean any() {
        for (long c : calls) if (c > 0) return true;
        return false;
    }

    /** The bucket's name: the stage's, or {@value #OUTSIDE_NAME}. */
    public static String name(int bucket) { return bucket == OUTSIDE ? OUTSIDE_NAME : Stage.values()[bucket].name(); }
}
