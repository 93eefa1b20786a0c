package org.rccj.framework.store;

/**
 * Key -> tuple offset cache consulted before the index (DrTM+H): direct-mapped, bounded, allocation-free.
 * One per worker (thread-confined; see design.md Decisions). A collision simply replaces the entry.
 */
public final class LocationCache {
    private final long[] keys;
    private final long[] values;   // tuple offset + 1; 0 = empty
    private final int[] tables;
    private final int mask;
    public long hits, misses;

    public LocationCache(int entriesPow2) {
        int n = Integer.highestOneBit(Math.max(16, entriesPow2));
        keys = new long[n];
        values = new long[n];
        tables = new int[n];
        mask = n - 1;
    }

    private int slot(int table, long key) { return (int) (Hashing.mix(key, table) & mask); }

    /** Tuple offset or -1. */
    public long get(int table, long key) {
        int s = slot(table, key);
        if (values[s] != 0 && keys[s] == key && tables[s] == table) {
            hits++;
            return values[s] - 1;
        }
        misses++;
        return -1;
    }

    public void put(int table, long key, long offset) {
        int s = slot(table, key);
        keys[s] = key;
        tables[s] = table;
        values[s] = offset + 1;
    }

    public void invalidate(int table, long key) {
        int s = slot(table, key);
        if (keys[s] == key && tables[s] == table) values[s] = 0;
    }
}
