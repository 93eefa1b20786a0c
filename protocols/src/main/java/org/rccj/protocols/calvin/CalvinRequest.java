package org.rccj.protocols.calvin;

import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;

/**
 * A transaction's input as its coordinator submits it to the node's sequencer and as every scheduler receives
 * it in an epoch's batch: its id, where its coordinator waits (a slot of the coordinator's node), its type and the
 * generator's saved pick (so any active participant can replay the logic, {@code TxnGenerator#savePick}), and its
 * access set (table, flags, key, and for OLLP a digest of the record the reconnaissance read; the owner node follows
 * from the key). The position of an access in the list is its index in the coordinator's {@link Tx} and in every replay.
 */
final class CalvinRequest {
    static final int TXN = 0, COORD_SLOT = 8, TYPE = 16, COUNT = 24, PICK_BYTES = 32, ITEMS = 40;
    static final int ITEM_TABLE_FLAGS = 0, ITEM_KEY = 8, ITEM_EXPECT = 16, ITEM_BYTES = 24;
    /** Flag bits above the table id in {@link #ITEM_TABLE_FLAGS}. */
    static final long FLAG_WRITE = 1L << 32, FLAG_NEEDS_VALUE = 1L << 33, FLAG_EXPECT = 1L << 34;
    static final long TABLE_MASK = 0xffff_ffffL;

    private CalvinRequest() {}

    static int bytes(int accesses, int pickBytes) { return ITEMS + accesses * ITEM_BYTES + pickBytes; }

    /**
     * Encodes accesses {@code [0, tx.size())} of {@code tx} and its generator's pick at {@code dst[off..)}; with
     * {@code expect} (OLLP) each access whose value the logic used carries the {@link #digest} of the record its
     * reconnaissance read. Returns the bytes written.
     */
    static int encode(Tx tx, int coordSlot, boolean expect, byte[] dst, int off) {
        int n = tx.size();
        Bytes.putLong(dst, off + TXN, tx.id);
        Bytes.putLong(dst, off + COORD_SLOT, coordSlot);
        Bytes.putLong(dst, off + TYPE, tx.type);
        Bytes.putLong(dst, off + COUNT, n);
        int p = off + ITEMS;
        for (int i = 0; i < n; i++) {
            Access a = tx.access(i);
            boolean expects = expect && a.needsValue;
            long flags = (a.write ? FLAG_WRITE : 0) | (a.needsValue ? FLAG_NEEDS_VALUE : 0) | (expects ? FLAG_EXPECT : 0);
            Bytes.putLong(dst, p + ITEM_TABLE_FLAGS, a.table.id | flags);
            Bytes.putLong(dst, p + ITEM_KEY, a.key);
            Bytes.putLong(dst, p + ITEM_EXPECT, expects ? digest(a.record, a.table.recordBytes) : 0);
            p += ITEM_BYTES;
        }
        int pick = tx.source.savePick(dst, p);
        Bytes.putLong(dst, off + PICK_BYTES, pick);
        return p + pick - off;
    }

    /**
     * OLLP's check, made alike by the coordinator and by every active participant: the record the logic computed
     * with (reconnaissance) and the locked one have the same digest. A digest rather than the version: a
     * reconnaissance READ is not atomic against an install (it can see a new version beside part of the old record).
     */
    static long digest(byte[] record, int bytes) {
        long h = bytes;
        int i = 0;
        for (; i + 8 <= bytes; i += 8) h = org.rccj.framework.store.Hashing.mix(h, Bytes.getLong(record, i));
        for (; i < bytes; i++) h = org.rccj.framework.store.Hashing.mix(h, record[i]);
        return h;
    }

    /** Bytes of the request starting at {@code src[off]}. */
    static int length(byte[] src, int off) {
        return bytes((int) Bytes.getLong(src, off + COUNT), (int) Bytes.getLong(src, off + PICK_BYTES));
    }
}
