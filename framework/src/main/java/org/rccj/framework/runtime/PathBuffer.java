package org.rccj.framework.runtime;

import java.util.Arrays;
import org.rccj.framework.stats.PathTotals;
import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Op;
import org.rccj.primitives.PathTrace;

/**
 * A coroutine's critical paths since its stage began (docs/decisions/0139-critical-path-split.md): each wait adds the
 * path of the op that completed last, whose terms add up to the wait; the stage's end moves the sums into the
 * worker's {@link PathTotals}. A few long stores per wait, no allocation (but the first sample of a bucket).
 */
final class PathBuffer {
    private final PathTrace trace;
    private final long[] ns = new long[CriticalPath.COUNT];
    private long calls, latency;
    /** The first wait since the last flush, for the bucket's sample. */
    private final long[] first = new long[CriticalPath.COUNT];
    private long firstLatency;

    PathBuffer(PathTrace trace) { this.trace = trace; }

    /** A wait of {@code latency} ns, the whole of which is {@code op}'s path (its terms sum to it). */
    void add(Op op, long latency) {
        int set = trace.terms(op);
        boolean firstOne = calls == 0;
        if (firstOne) Arrays.fill(first, 0);
        while (set != 0) {
            int t = Integer.numberOfTrailingZeros(set);
            set &= set - 1;
            int d = trace.ns(op, t);
            ns[t] += d;
            if (firstOne) first[t] = d;
        }
        if (firstOne) firstLatency = latency;
        calls++;
        this.latency += latency;
    }

    /** Moves the sums into {@code bucket} of {@code into} (outside the measured interval: a sink, see WorkerStats). */
    void flush(PathTotals into, int bucket) {
        if (calls == 0) return;
        into.add(bucket, ns, calls, latency);
        if (into.sample[bucket] == null) {
            into.sample[bucket] = first.clone();
            into.sampleLatencyNs[bucket] = firstLatency;
        }
        Arrays.fill(ns, 0);
        calls = 0;
        latency = 0;
    }
}
