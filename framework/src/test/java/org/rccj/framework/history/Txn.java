package org.rccj.framework.history;

import java.util.Arrays;

/** Test builder for {@link HistoryRecord}s. */
final class Txn {
    private final long id;
    private final String type;
    private long[] reads = new long[0];
    private long[] writes = new long[0];

    private Txn(long id, String type) {
        this.id = id;
        this.type = type;
    }

    static Txn txn(long id) { return new Txn(id, "T"); }

    static Txn txn(long id, String type) { return new Txn(id, type); }

    Txn read(int table, long key, long version) {
        reads = append(reads, table, key, version);
        return this;
    }

    Txn write(int table, long key, long version, long prev) {
        writes = append(writes, table, key, version, prev);
        return this;
    }

    HistoryRecord build() { return new HistoryRecord(id, type, reads, writes); }

    private static long[] append(long[] a, long... more) {
        long[] out = Arrays.copyOf(a, a.length + more.length);
        System.arraycopy(more, 0, out, a.length, more.length);
        return out;
    }
}
