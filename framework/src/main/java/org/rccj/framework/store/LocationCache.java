package org.rccj.framework.store;

/**
 * Key -> tuple offset cache consulted before the index (DrTM+H's location cache): one per node, shared by
 * the node's workers, open-addressed (an entry lives in its home slot or one of the next {@link #PROBES - 1}),
 * bounded and allocation-free. A put that finds no free slot among them replaces the home slot's entry; a
 * {@link #preload} that finds none leaves the key out (the index finds it at run time). DrTM+H's artifact
 * preloads its cache with every tuple before the run ({@code RDMA_CACHE 1}); RCC-J does so at load when
 * {@code location_cache.preload} says so (Cluster).
 *
 * <p>Workers of a node race on it on the {@code local} fabric without locks: an entry is two words, a tag
 * and the offset XOR-ed with a hash of the tag, so a torn entry (tag of one write, offset of another)
 * decodes to a garbage offset. Callers therefore accept an offset only if it is a tuple boundary inside
 * the table ({@link Table#validTupleOffset}), and a fetched tuple whose key word differs from the key
 * asked for is treated as a miss ({@link #invalidate}): keys are unique within a table and tuples never
 * move, so a tuple with the right key at a valid offset is the right tuple. An invalidated entry keeps its
 * tag (value 0), so the keys probed past it stay reachable.
 *
 * <p>A preloaded cache of a cluster whose nodes share a process (sim, local) would hold the same locations on
 * every node: nodes x tuples of memory. There each node's cache is instead an overlay over one read-only
 * {@link Preloaded} source every node reads (the owner's index, which holds exactly the loaded tuples): a key the
 * overlay has no entry for is looked up there, a put of the location the source already gives is not stored, and
 * an invalidation stores a tombstone (value 0). Tuples never move and a preloaded cache with room for every tuple
 * never evicts, so the answers are those of a per-node copy (decision 0155).
 */
public final class LocationCache {
    /** The locations a preloaded cache would hold: the tuple offset of a loaded key, or -1. Read-only, thread-safe. */
    @FunctionalInterface
    public interface Preloaded { long locate(int table, long key); }

    /** Entry s is two adjacent words (one cache line): the tag at {@code 2s + TAG}, the value at {@code 2s + VALUE}. */
    private static final int TAG = 0, VALUE = 1;
    /**
     * Slots a key may occupy: its home slot and the next PROBES - 1 (wrapping). A lookup stops at the first free
     * slot, so at the preload's load factor (at most 2/3, Cluster) it looks at a few slots; the bound only matters
     * for a nearly full (location_cache.mb-bounded) cache.
     */
    static final int PROBES = 1024;
    /** Tags (never 0: 0 = a free slot) and values ((tuple offset + 1) ^ mix(tag); 0 = none), interleaved. */
    private final long[] entries;
    private final int mask;
    /** The shared preloaded locations under this overlay, or null (a cache of its own). */
    private final Preloaded base;

    public LocationCache(int entries) { this(entries, null); }

    /** A cache of {@code entries} entries over the shared preloaded locations {@code base} (null: none). */
    public LocationCache(int entries, Preloaded base) {
        int n = Integer.highestOneBit(Math.max(16, entries));
        if (n < entries) n <<= 1;
        this.entries = new long[2 * n];
        mask = n - 1;
        this.base = base;
    }

    public int capacity() { return entries.length / 2; }

    /** The bytes a cache of {@code entries} entries takes (two words per entry, rounded up to a power of two). */
    public static long bytes(long entries) { return 16L * Math.max(16, Long.highestOneBit(Math.max(1, entries - 1)) << 1); }

    /** The home slot comes from the low bits; the top bit keeps every tag non-zero. */
    private static long tag(int table, long key) { return Hashing.mix(key, table) | Long.MIN_VALUE; }

    /** Entry index (2 x slot) of the tag, or -1 - (entry index of the first free slot among its probes), or Long.MIN_VALUE (no free one). */
    private long find(long tag) {
        for (int p = 0, n = Math.min(PROBES, mask + 1); p < n; p++) {
            int s = 2 * (int) ((tag + p) & mask);
            long t = entries[s + TAG];
            if (t == tag) return s;
            if (t == 0) return -1 - s;
        }
        return Long.MIN_VALUE;
    }

    /** Tuple offset, or -1 (a miss). The offset may be garbage after a race: validate it before use. */
    public long get(int table, long key) {
        long tag = tag(table, key);
        long s = find(tag);
        if (s < 0) return base == null ? -1 : base.locate(table, key);
        long v = entries[(int) s + VALUE];
        if (v == 0) return -1;
        return (v ^ Hashing.mix(tag)) - 1;
    }

    public void put(int table, long key, long offset) {
        long tag = tag(table, key);
        long s = find(tag);
        if (s < 0 && base != null && base.locate(table, key) == offset) return;    // the shared source says so already
        int e = s >= 0 ? (int) s : s != Long.MIN_VALUE ? (int) (-1 - s) : 2 * (int) (tag & mask);
        write(e, tag, offset);
    }

    /** Stores the location before the run if the key has a slot among its probes; false: it does not fit. */
    public boolean preload(int table, long key, long offset) {
        long tag = tag(table, key);
        long s = find(tag);
        if (s == Long.MIN_VALUE) return false;
        write(s >= 0 ? (int) s : (int) (-1 - s), tag, offset);
        return true;
    }

    private void write(int e, long tag, long offset) {
        entries[e + TAG] = tag;
        entries[e + VALUE] = (offset + 1) ^ Hashing.mix(tag);
    }

    public void invalidate(int table, long key) {
        long tag = tag(table, key);
        long s = find(tag);
        if (s >= 0) {
            entries[(int) s + VALUE] = 0;
        } else if (base != null) {
            // a tombstone hides the shared location as a cleared entry of a per-node copy would
            int e = s != Long.MIN_VALUE ? (int) (-1 - s) : 2 * (int) (tag & mask);
            entries[e + TAG] = tag;
            entries[e + VALUE] = 0;
        }
    }
}
