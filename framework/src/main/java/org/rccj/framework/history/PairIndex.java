package org.rccj.framework.history;

import java.util.Arrays;

/**
 * Open-addressing hash map from a pair (int a, long b) to a non-negative int, with no boxing.
 * Linear probing over parallel primitive arrays; capacity is a power of two kept at most half full.
 * Used to intern (table, key) pairs and to index (key id, version) pairs by the history checker.
 */
final class PairIndex {
    /** Returned by {@link #get} when the pair is absent. */
    static final int ABSENT = -1;

    private int[] as;
    private long[] bs;
    private int[] values; // ABSENT marks an empty slot
    private int mask;
    private int size;

    PairIndex(int expected) {
        int e = Math.min(Math.max(16, expected), 1 << 28);
        int cap = Integer.highestOneBit(e * 2 - 1) << 1; // power of two >= 2 * e
        allocate(cap);
    }

    private void allocate(int cap) {
        as = new int[cap];
        bs = new long[cap];
        values = new int[cap];
        Arrays.fill(values, ABSENT);
        mask = cap - 1;
    }

    int size() { return size; }

    private static int hash(int a, long b) {
        long h = b * 0x9E3779B97F4A7C15L + a * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        h *= 0xBF58476D1CE4E5B9L;
        h ^= h >>> 32;
        return (int) h;
    }

    /** The value stored for (a, b), or {@link #ABSENT}. */
    int get(int a, long b) {
        int i = hash(a, b) & mask;
        while (true) {
            int v = values[i];
            if (v == ABSENT) return ABSENT;
            if (as[i] == a && bs[i] == b) return v;
            i = (i + 1) & mask;
        }
    }

    /**
     * Stores value for (a, b) unless the pair is present. Returns the value already stored, or
     * {@link #ABSENT} if value was stored.
     */
    int putIfAbsent(int a, long b, int value) {
        if (value < 0) throw new IllegalArgumentException("negative value " + value);
        int i = hash(a, b) & mask;
        while (true) {
            int v = values[i];
            if (v == ABSENT) break;
            if (as[i] == a && bs[i] == b) return v;
            i = (i + 1) & mask;
        }
        as[i] = a;
        bs[i] = b;
        values[i] = value;
        if (++size * 2 > values.length) grow();
        return ABSENT;
    }

    /** Stores value for (a, b), replacing any previous value; returns the previous value or ABSENT. */
    int put(int a, long b, int value) {
        if (value < 0) throw new IllegalArgumentException("negative value " + value);
        int i = hash(a, b) & mask;
        while (true) {
            int v = values[i];
            if (v == ABSENT) break;
            if (as[i] == a && bs[i] == b) {
                values[i] = value;
                return v;
            }
            i = (i + 1) & mask;
        }
        as[i] = a;
        bs[i] = b;
        values[i] = value;
        if (++size * 2 > values.length) grow();
        return ABSENT;
    }

    private void grow() {
        int[] oldA = as;
        long[] oldB = bs;
        int[] oldV = values;
        if (oldV.length >= (1 << 30)) throw new IllegalStateException("PairIndex too large");
        allocate(oldV.length * 2);
        for (int j = 0; j < oldV.length; j++) {
            int v = oldV[j];
            if (v == ABSENT) continue;
            int i = hash(oldA[j], oldB[j]) & mask;
            while (values[i] != ABSENT) i = (i + 1) & mask;
            as[i] = oldA[j];
            bs[i] = oldB[j];
            values[i] = v;
        }
    }
}
