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
    private final long[] tags;
    private final long[] values;   // (tuple offset + 1) ^ mix(tag); 0 = empty
    private final int mask;

    public LocationCache(int entries) {
        int n = Integer.highestOneBit(Math.max(16, entries));
        if (n < entries) n <<= 1;
        tags = new long[n];
        values = new long[n];
        mask = n - 1;
    }

    public int capacity() { return tags.length; }

    private static long tag(int table, long key) { return Hashing.mix(key, table); }

    /** Tuple offset, or -1 (a miss). The offset may be garbage after a race: validate it before use. */
    public long get(int table, long key) {
        long tag = tag(table, key);
        int s = (int) (tag & mask);
        long v = values[s];
        if (v == 0 || tags[s] != tag) return -1;
        return (v ^ Hashing.mix(tag)) - 1;
    }

    public void put(int table, long key, long offset) {
        long tag = tag(table, key);
        int s = (int) (tag & mask);
        tags[s] = tag;
        values[s] = (offset + 1) ^ Hashing.mix(tag);
    }

    public void invalidate(int table, long key) {
        long tag = tag(table, key);
        int s = (int) (tag & mask);
        if (tags[s] == tag) values[s] = 0;
    }
}
