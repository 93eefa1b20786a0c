package org.rccj.framework.stats;

import static org.junit.jupiter.api.Assertions.*;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistogramTest {
    @Test
    void quantilesWithinBucketError() {
        Histogram h = new Histogram();
        long[] v = new long[100_001];
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < v.length; i++) {
            v[i] = 1 + r.nextLong(10_000_000);
            h.record(v[i]);
        }
        java.util.Arrays.sort(v);
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            double exact = v[(int) Math.ceil(q * v.length) - 1];
            assertEquals(exact, h.quantile(q), exact * 0.02, "q=" + q);
        }
        assertEquals(v[v.length - 1], h.max());
        assertEquals(v[0], h.min());
    }

    @Test
    void bucketsAreContiguous() {
        for (int i = 0; i < 1500; i++) {
            assertEquals(Histogram.upperBound(i) + 1, Histogram.lowerBound(i + 1), "bucket " + i);
            assertEquals(i, Histogram.index(Histogram.lowerBound(i)));
            assertEquals(i, Histogram.index(Histogram.upperBound(i)));
        }
    }
}
