package org.rccj.framework.stats;

/**
 * A latency histogram of non-negative longs (ns): an HdrHistogram ({@link org.HdrHistogram.Histogram}) with
 * {@value #SIGNIFICANT_DIGITS} significant decimal digits (values below 2048 are exact, larger ones are kept
 * within 0.1%; quantiles are the midpoints of their buckets, so within 0.05%), auto-resizing to any value.
 * Alongside it this class keeps the exact count, sum, min and max (HdrHistogram's own are rounded to buckets),
 * which summary.json's means and maxima use. Recording allocates nothing unless a value beyond the largest
 * seen so far grows the bucket array.
 *
 * <p>Recorded values wait in a small buffer and go into the HdrHistogram {@value #BATCH} at a time (and before
 * anything reads it): a simulated run keeps hundreds of these histograms, whose bucket arrays do not fit in
 * the CPU's caches, and the bucket increments of one batch overlap their cache misses instead of each
 * stalling the simulation in turn. The contents are the same as when recording one value at a time.
 */
public final class Histogram implements java.io.Serializable {
    private static final long serialVersionUID = 2L;
    /** HdrHistogram's precision: 3 digits, i.e. a relative bucket width of at most 2^-10. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final org.HdrHistogram.Histogram hdr = new org.HdrHistogram.Histogram(SIGNIFICANT_DIGITS);
    private long count, sum, max, min = Long.MAX_VALUE;
    /** Values recorded since the last {@link #drain()}, {@code pendingCount} of them. */
    static final int BATCH = 64;
    private transient long[] pending;
    private transient int pendingCount;

    public void record(long v) {
        if (v < 0) v = 0;
        long[] p = pending;
        if (p == null) pending = p = new long[BATCH];
        p[pendingCount++] = v;
        if (pendingCount == BATCH) drain();
        count++;
        sum += v;
        if (v > max) max = v;
        if (v < min) min = v;
    }

    /** Puts the buffered values into the HdrHistogram. */
    private void drain() {
        long[] p = pending;
        for (int i = 0, n = pendingCount; i < n; i++) hdr.recordValue(p[i]);
        pendingCount = 0;
    }

    private void writeObject(java.io.ObjectOutputStream out) throws java.io.IOException {
        drain();
        out.defaultWriteObject();
    }

    public void add(Histogram o) {
        drain();
        o.drain();
        hdr.add(o.hdr);
        count += o.count;
        sum += o.sum;
        if (o.count > 0) {
            max = Math.max(max, o.max);
            min = Math.min(min, o.min);
        }
    }

    public void reset() {
        pendingCount = 0;
        hdr.reset();
        count = sum = max = 0;
        min = Long.MAX_VALUE;
    }

    public long count() { return count; }
    public long sum() { return sum; }
    public long max() { return count == 0 ? 0 : max; }
    public long min() { return count == 0 ? 0 : min; }
    public double mean() { return count == 0 ? 0 : (double) sum / count; }

    /**
     * Value at quantile q in [0,1]: the midpoint of the HdrHistogram bucket holding it, clamped to the exact
     * [min, max].
     */
    public double quantile(double q) {
        if (count == 0) return 0;
        drain();
        long v = hdr.getValueAtPercentile(Math.max(0, Math.min(1, q)) * 100);
        double mid = hdr.lowestEquivalentValue(v) + (hdr.sizeOfEquivalentValueRange(v) - 1) / 2.0;
        return Math.max(min, Math.min(max, mid));
    }

    /**
     * A copy of the HdrHistogram inside (for its log format, {@link org.HdrHistogram.HistogramLogWriter}, and
     * its percentile distribution); changing it does not change this histogram.
     */
    public org.HdrHistogram.Histogram toHdr() {
        drain();
        return hdr.copy();
    }
}
