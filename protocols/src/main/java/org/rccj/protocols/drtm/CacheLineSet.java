package org.rccj.protocols.drtm;

import java.util.Arrays;
import org.rccj.framework.store.Hashing;

/**
 * A set of cache lines (region, line number), for the emulated HTM's read and write sets: open
 * addressing, sized for the capacity it checks, cleared per transaction without allocating.
 */
final class CacheLineSet {
    private static final long EMPTY = -1;
    private final long[] slots;
    private final int mask;
    private final int[] used;
    private int size;

    /** @param limit the most lines it ever holds before its owner stops adding (capacity + 1) */
    CacheLineSet(int limit) {
        int n = Integer.highestOneBit(Math.max(16, limit * 2 - 1)) << 1;
        slots = new long[n];
        Arrays.fill(slots, EMPTY);
        mask = n - 1;
        used = new int[limit];
    }

    static long line(int region, long byteOffset) { return ((long) region << 40) | (byteOffset / DrtmTuple.LINE_BYTES); }

    int size() { return size; }

    /** Adds a line; returns false if the set is full (its owner's capacity is already exceeded). */
    boolean add(long line) {
        int s = (int) (Hashing.mix(line) & mask);
        while (slots[s] != EMPTY) {
            if (slots[s] == line) return true;
            s = (s + 1) & mask;
        }
        if (size == used.length) return false;
        slots[s] = line;
        used[size++] = s;
        return true;
    }

    void clear() {
        for (int i = 0; i < size; i++) slots[used[i]] = EMPTY;
        size = 0;
    }
}
