package org.rccj.framework.store;

/**
 * Key -> tuple offset cache consulted before the index (DrTM+H's location cache): one per node, shared by
 * the node's workers, direct-mapped, bounded and allocation-free. A collision replaces the entry.
 *
 * <p>Workers of a node race on it on the {@code local} fabric without locks: an entry is two words, a tag
 * and the offset XOR-ed with a hash of the tag, so a torn entry (tag of one write, offset of another)
 * decodes to a garbage offset. Callers therefore accept an offset only if it is a tuple boundary inside
 * the table ({@link Table#validTupleOffset}), and a fetched tuple whose key word differs from the key
 * asked for is treated as a miss ({@link #invalidate}): keys are unique within a table and tuples never
 * move, so a tuple with the right key at a valid offset is the right tuple.
 */
public final class LocationCache {
    /** Entry s is two adjacent words (one cache line): the tag at {@code 2s + TAG}, the value at {@code 2s + VALUE}. */
    private static final int TAG = 0, VALUE = 1;
    /** Tags and values ((tuple offset + 1) ^ mix(tag); 0 = empty), interleaved. */
    private final long[] entries;
    private final int mask;

    public LocationCache(int entries) {
        int n = Integer.highestOneBit(Math.max(16, entries));
        if (n < entries) n <<= 1;
        this.entries = new long[2 * n];
        mask = n - 1;
    }

    public int capacity() { return entries.length / 2; }

    private static long tag(int table, long key) { return Hashing.mix(key, table); }

    /** Tuple offset, or -1 (a miss). The offset may be garbage after a race: validate it before use. */
    public long get(int table, long key) {
        long tag = tag(table, key);
        int s = 2 * (int) (tag & mask);
        long v = entries[s + VALUE];
        if (v == 0 || entries[s + TAG] != tag) return -1;
        return (v ^ Hashing.mix(tag)) - 1;
    }

    public void put(int table, long key, long offset) {
        long tag = tag(table, key);
        int s = 2 * (int) (tag & mask);
        entries[s + TAG] = tag;
        entries[s + VALUE] = (offset + 1) ^ Hashing.mix(tag);
    }

    public void invalidate(int table, long key) {
        long tag = tag(table, key);
        int s = 2 * (int) (tag & mask);
        if (entries[s + TAG] == tag) entries[s + VALUE] = 0;
    }
}
