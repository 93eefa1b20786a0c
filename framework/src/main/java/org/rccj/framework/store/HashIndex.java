package org.rccj.framework.store;

import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * RDMA-friendly hash index in registered memory (cluster chaining, DrTM-KV style): a one-sided lookup is
 * one READ of a 64-byte bucket (plus one per overflow bucket) and then one READ of the tuple.
 *
 * <p>Region layout: a 64-byte header whose first word is the number of overflow buckets in use, then
 * {@code buckets} main buckets, then the overflow buckets. Bucket layout: {@link #SLOTS} slots of
 * (key, tuple offset + 1), 0 meaning empty, and a link to the next overflow bucket (index + 1, 0 = none).
 */
public final class HashIndex {
    public static final int BUCKET_BYTES = 64;
    public static final int SLOTS = 3;
    public static final int SLOT_BYTES = 16;
    public static final int SLOT_KEY = 0;
    public static final int SLOT_VALUE = 8;
    public static final int NEXT = SLOTS * SLOT_BYTES;
    public static final int REGION_HEADER = 64;
    public static final int OVERFLOW_USED = 0;

    /** Result of looking in one bucket: the tuple offset, or that the key is not there at all. */
    public static final long NOT_FOUND = -1;

    private final long buckets;
    private final long overflow;

    public HashIndex(long capacity) {
        this.buckets = Math.max(4, capacity / 2);
        this.overflow = Math.max(16, capacity / 4);
    }

    public long regionBytes() { return REGION_HEADER + (buckets + overflow) * BUCKET_BYTES; }

    /** Offset of the main bucket of a key. */
    public long bucketOffset(int table, long key) {
        long b = Long.remainderUnsigned(Hashing.mix(key, table), buckets);
        return REGION_HEADER + b * BUCKET_BYTES;
    }

    public static long bucketAt(long linkIndex) { return REGION_HEADER + linkIndex * BUCKET_BYTES; }

    /**
     * Scans a fetched bucket. Returns the tuple offset; {@link #NOT_FOUND} if the key is absent from the
     * chain; or {@code -2 - nextBucketOffset} when the next overflow bucket must be read.
     */
    public static long scan(byte[] bucket, long key) {
        for (int s = 0; s < SLOTS; s++) {
            long v = Bytes.getLong(bucket, s * SLOT_BYTES + SLOT_VALUE);
            if (v != 0 && Bytes.getLong(bucket, s * SLOT_BYTES + SLOT_KEY) == key) return v - 1;
        }
        long next = Bytes.getLong(bucket, NEXT);
        return next == 0 ? NOT_FOUND : -2 - bucketAt(next - 1);
    }

    /** Lookup on the owning node (RPC handlers, local shortcut). */
    public long lookupLocal(RegisteredMemory m, int region, int table, long key) {
        long b = bucketOffset(table, key);
        while (true) {
            for (int s = 0; s < SLOTS; s++) {
                long v = m.getLongVolatile(region, b + s * SLOT_BYTES + SLOT_VALUE);
                if (v != 0 && m.getLong(region, b + s * SLOT_BYTES + SLOT_KEY) == key) return v - 1;
            }
            long next = m.getLongVolatile(region, b + NEXT);
            if (next == 0) return NOT_FOUND;
            b = bucketAt(next - 1);
        }
    }

    /**
     * Inserts on the owning node. Safe against concurrent lookups (the value word is published last);
     * inserts into one index must not run concurrently (callers serialize them per node).
     */
    public void insertLocal(RegisteredMemory m, int region, int table, long key, long tupleOffset) {
        long b = bucketOffset(table, key);
        while (true) {
            for (int s = 0; s < SLOTS; s++) {
                if (m.getLong(region, b + s * SLOT_BYTES + SLOT_VALUE) == 0) {
                    m.putLong(region, b + s * SLOT_BYTES + SLOT_KEY, key);
                    m.putLongRelease(region, b + s * SLOT_BYTES + SLOT_VALUE, tupleOffset + 1);
                    return;
                }
            }
            long next = m.getLong(region, b + NEXT);
            if (next == 0) {
                long used = m.getLong(region, OVERFLOW_USED);
                if (used >= overflow) throw new IllegalStateException("hash index overflow area full (table " + table + ")");
                m.putLong(region, OVERFLOW_USED, used + 1);
                long link = buckets + used;        // bucket index of the new overflow bucket
                m.putLongRelease(region, b + NEXT, link + 1);
                b = bucketAt(link);
            } else {
                b = bucketAt(next - 1);
            }
        }
    }
}
