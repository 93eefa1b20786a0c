package org.rccj.protocols.hades;

import java.util.Arrays;

/**
 * An exact set of cache-line ids (open addressing, no boxing) with its members in insertion order. Beside
 * every Bloom filter it is the ground truth: a probe the filter answers "no" while this set says "yes" is a
 * missed conflict (an internal error); "yes" against "no" is a false positive.
 */
final class LineSet {
    private static final long EMPTY = -1;
    private long[] slots = new long[32];
    private long[] order = new long[16];
    private int size;

    int size() { return size; }
    long get(int i) { return order[i]; }

    boolean add(long line) {
        if (2 * (size + 1) > slots.length) grow();
        int i = index(line, slots.length);
        while (slots[i] != EMPTY) {
            if (slots[i] == line) return false;
            i = (i + 1) & (slots.length - 1);
        }
        slots[i] = line;
        if (size == order.length) order = Arrays.copyOf(order, size * 2);
        order[size++] = line;
        return true;
    }

    boolean contains(long line) {
        if (size == 0) return false;
        int i = index(line, slots.length);
        while (slots[i] != EMPTY) {
            if (slots[i] == line) return true;
            i = (i + 1) & (slots.length - 1);
        }
        return false;
    }

    void clear() {
        if (size == 0) return;
        Arrays.fill(slots, EMPTY);
        size = 0;
    }

    private void grow() {
        long[] old = order;
        int n = size;
        slots = new long[slots.length * 2];
        Arrays.fill(slots, EMPTY);
        size = 0;
        order = new long[Math.max(16, old.length)];
        for (int k = 0; k < n; k++) add(old[k]);
    }

    private static int index(long line, int cap) {
        return (int) (org.rccj.framework.store.Hashing.mix(line) & (cap - 1));
    }

    { Arrays.fill(slots, EMPTY); }
}
