package org.rccj.framework.stats;

import java.util.Arrays;

/**
 * Log-linear histogram of non-negative longs (ns): exact below 128, then 64 sub-buckets per power of
 * two (relative error below 1.6%). Recording allocates nothing. Exact count, sum, min and max.
 */
public final class Histogram implements java.io.Serializable {
    private static final long serialVersionUID = 1L;
    private static final int LINEAR = 128;      // values below are exact
    private static final int SUB_BITS = 6;      // 64 sub-buckets per octave
    private static final int SUB = 1 << SUB_BITS;
    private static final int FIRST_EXP = 7;     // 2^7 = 128
    private final long[] counts = new long[LINEAR + (64 - FIRST_EXP) * SUB];
    private long count, sum, max, min = Long.MAX_VALUE;

    static int index(long v) {
        if (v < LINEAR) return (int) Math.max(0, v);
        int e = 63 - Long.numberOfLeadingZeros(v);
        int shift = e - SUB_BITS;
        return LINEAR + (e - FIRST_EXP) * SUB + (int) ((v >> shift) - SUB);
    }

    static long lowerBound(int idx) {
        if (idx < LINEAR) return idx;
        int e = (idx - LINEAR) / SUB + FIRST_EXP;
        long m = (idx - LINEAR) % SUB + SUB;
        return m << (e - SUB_BITS);
    }

    static long upperBound(int idx) {
        if (idx < LINEAR) return idx;
        int e = (idx - LINEAR) / SUB + FIRST_EXP;
        long m = (idx - LINEAR) % SUB + SUB;
        return ((m + 1) << (e - SUB_BITS)) - 1;
    }

    public void record(long v) {
        if (v < 0) v = 0;
        counts[index(v)]++;
        count++;
        sum += v;
        if (v > max) max = v;
        if (v < min) min = v;
    }

    public void add(Histogram o) {
        for (int i = 0; i < counts.length; i++) counts[i] += o.counts[i];
        count += o.count;
        sum += o.sum;
        if (o.count > 0) {
            max = Math.max(max, o.max);
            min = Math.min(min, o.min);
        }
    }

    public void reset() {
        Arrays.fill(counts, 0);
        count = sum = max = 0;
        min = Long.MAX_VALUE;
    }

    public long count() { return count; }
    public long sum() { return sum; }
    public long max() { return count == 0 ? 0 : max; }
    public long min() { return count == 0 ? 0 : min; }
    public double mean() { return count == 0 ? 0 : (double) sum / count; }

    /** Value at quantile q in [0,1]: the midpoint of the bucket holding it, clamped to [min, max]. */
    public double quantile(double q) {
        if (count == 0) return 0;
        long rank = (long) Math.ceil(q * count);
        if (rank < 1) rank = 1;
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                double mid = (lowerBound(i) + upperBound(i)) / 2.0;
                return Math.max(min, Math.min(max, mid));
            }
        }
        return max;
    }
}
