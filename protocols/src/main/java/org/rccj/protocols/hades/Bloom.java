package org.rccj.protocols.hades;

import org.rccj.framework.store.Hashing;

/**
 * A hardware Bloom filter over cache-line ids: a main section of {@code bits} bits probed by {@code hashes}
 * hash functions, optionally AND-ed with an index section of {@code indexBits} bits addressed by the line's
 * low bits (HADES's LocalWriteBF: 512 b CRC section plus the 4096 b LLC set-index section). No false
 * negatives; false positives at the rate its size and fill give (the paper's Table IV).
 */
final class Bloom {
    final int bits, hashes, indexBits;
    private final long[] main, index;
    private int inserted;

    Bloom(int bits, int hashes, int indexBits) {
        this.bits = bits;
        this.hashes = hashes;
        this.indexBits = indexBits;
        this.main = new long[(bits + 63) / 64];
        this.index = indexBits > 0 ? new long[(indexBits + 63) / 64] : null;
    }

    private int slot(long line, int h) {
        return (int) Long.remainderUnsigned(Hashing.mix(line, 0x5bd1e995L + h), bits);
    }

    private int indexSlot(long line) { return (int) Long.remainderUnsigned(line, indexBits); }

    void add(long line) {
        for (int h = 0; h < hashes; h++) set(main, slot(line, h));
        if (index != null) set(index, indexSlot(line));
        inserted++;
    }

    boolean mightContain(long line) {
        if (inserted == 0) return false;
        for (int h = 0; h < hashes; h++) if (!get(main, slot(line, h))) return false;
        return index == null || get(index, indexSlot(line));
    }

    boolean isEmpty() { return inserted == 0; }

    /** Flash clear. */
    void clear() {
        if (inserted == 0) return;
        java.util.Arrays.fill(main, 0);
        if (index != null) java.util.Arrays.fill(index, 0);
        inserted = 0;
    }

    private static void set(long[] w, int i) { w[i >>> 6] |= 1L << (i & 63); }
    private static boolean get(long[] w, int i) { return (w[i >>> 6] & (1L << (i & 63))) != 0; }
}
