package org.rccj.framework.stats;

/**
 * A latency histogram of non-negative longs (ns): an HdrHistogram ({@link org.HdrHistogram.Histogram}) with
 * {@value #SIGNIFICANT_DIGITS} significant decimal digits (values below 2048 are exact, larger ones are kept
 * within 0.1%; quantiles are the midpoints of their buckets, so within 0.05%), auto-resizing to any value.
 * Alongside it this class keeps the exact count, sum, min and max (HdrHistogram's own are rounded to buckets),
 * which summary.json's means and maxima use. Recording allocates nothing unless a value beyond the largest
 * seen so far grows the bucket array.
 */
public final class Histogram implements java.io.Serializable {
    private static final long serialVersionUID = 2L;
    /** HdrHistogram's precision: 3 digits, i.e. a relative bucket width of at most 2^-10. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final org.HdrHistogram.Histogram hdr = new org.HdrHistogram.Histogram(SIGNIFICANT_DIGITS);
    private long count, sum, max, min = Long.MAX_VALUE;

    public void record(long v) {
        if (v < 0) v = 0;
        hdr.recordValue(v);
        count++;
        sum += v;
        if (v > max) max = v;
        if (v < min) min = v;
    }

    public void add(Histogram o) {
        hdr.add(o.hdr);
        count += o.count;
        sum += o.sum;
        if (o.count > 0) {
            max = Math.max(max, o.max);
            min = Math.min(min, o.min);
        }
    }

    public void reset() {
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
        long v = hdr.getValueAtPercentile(Math.max(0, Math.min(1, q)) * 100);
        double mid = hdr.lowestEquivalentValue(v) + (hdr.sizeOfEquivalentValueRange(v) - 1) / 2.0;
        return Math.max(min, Math.min(max, mid));
    }

    /**
     * A copy of the HdrHistogram inside (for its log format, {@link org.HdrHistogram.HistogramLogWriter}, and
     * its percentile distribution); changing it does not change this histogram.
     */
    public org.HdrHistogram.Histogram toHdr() {
        return hdr.copy();
    }
}
