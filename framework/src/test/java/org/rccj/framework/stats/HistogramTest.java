package org.rccj.framework.stats;

import static org.junit.jupiter.api.Assertions.*;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HistogramTest {
    @Test
    void quantilesWithinHdrPrecision() {
        Histogram h = new Histogram();
        long[] v = new long[100_001];
        SplittableRandom r = new SplittableRandom(3);
        long sum = 0;
        for (int i = 0; i < v.length; i++) {
            v[i] = 1 + r.nextLong(10_000_000);
            h.record(v[i]);
            sum += v[i];
        }
        java.util.Arrays.sort(v);
        for (double q : new double[] {0.5, 0.9, 0.99, 0.999}) {
            double exact = v[(int) Math.ceil(q * v.length) - 1];
            // 3 significant digits: bucket midpoints within 2^-11 of any value in the bucket (the old
            // hand-made histogram allowed 1.6%)
            assertEquals(exact, h.quantile(q), exact * 0.0006, "q=" + q);
        }
        assertEquals(v[v.length - 1], h.max(), "exact max");
        assertEquals(v[0], h.min(), "exact min");
        assertEquals(sum, h.sum(), "exact sum");
        assertEquals((double) sum / v.length, h.mean(), 1e-9);
    }

    @Test
    void smallValuesAreExact() {
        Histogram h = new Histogram();
        for (long x = 0; x < 2048; x++) h.record(x);
        assertEquals(1023, h.quantile(0.5), 1.0);
        assertEquals(2027, h.quantile(0.99), 1.0);
        h.reset();
        assertEquals(0, h.count());
        assertEquals(0, h.quantile(0.5));
        h.record(-5);
        assertEquals(0, h.max(), "negative values count as 0");
    }

    @Test
    void addMergesAndToHdrIsACopy() {
        Histogram a = new Histogram(), b = new Histogram();
        for (int i = 1; i <= 100; i++) a.record(i * 1000L);
        for (int i = 101; i <= 200; i++) b.record(i * 1000L);
        a.add(b);
        assertEquals(200, a.count());
        assertEquals(1000, a.min());
        assertEquals(200_000, a.max());
        assertEquals(100_000, a.quantile(0.5), 100);
        org.HdrHistogram.Histogram copy = a.toHdr();
        assertEquals(200, copy.getTotalCount());
        copy.recordValue(5);
        assertEquals(200, a.toHdr().getTotalCount(), "the copy is independent");
    }

    @Test
    void bufferedValuesReachEveryReaderAsIfRecordedOneByOne() throws Exception {
        // values wait in batches of Histogram.BATCH: every read, merge, copy and serialization sees them all
        SplittableRandom r = new SplittableRandom(11);
        org.HdrHistogram.Histogram ref = new org.HdrHistogram.Histogram(Histogram.SIGNIFICANT_DIGITS);
        Histogram h = new Histogram();
        int n = 3 * Histogram.BATCH + 5;          // ends with a partly filled batch
        for (int i = 0; i < n; i++) {
            long v = r.nextLong(1_000_000);
            h.record(v);
            ref.recordValue(v);
        }
        assertEquals(ref, h.toHdr(), "toHdr holds the buffered values");
        assertEquals(ref.getValueAtPercentile(99), h.toHdr().getValueAtPercentile(99));

        Histogram fresh = new Histogram();
        fresh.record(7);                        // only buffered
        fresh.add(h);
        ref.recordValue(7);
        assertEquals(ref, fresh.toHdr(), "add drains both sides");

        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        Histogram partly = new Histogram();
        partly.record(5);
        partly.record(9);
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) { out.writeObject(partly); }
        Histogram back;
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            back = (Histogram) in.readObject();
        }
        assertEquals(2, back.toHdr().getTotalCount(), "serialized with its buffered values");
        back.record(3);                         // and records again after the trip
        assertEquals(3, back.count());
        assertEquals(3, back.toHdr().getTotalCount());
    }
}
