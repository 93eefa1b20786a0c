package org.rccj.protocols.calvin;

import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;

/**
 * A transaction's input as its coordinator submits it to the node's sequencer and as every scheduler receives
 * it in an epoch's batch: its id, where its coordinator waits (a slot of the coordinator's node), and its
 * access set (table, flags, key; the owner node follows from the key). The position of an access in the list
 * is its index in the coordinator's {@link Tx}, so forwarded values find their access.
 */
final class CalvinRequest {
    static final int TXN = 0, COORD_SLOT = 8, COUNT = 16, ITEMS = 24;
    static final int ITEM_TABLE_FLAGS = 0, ITEM_KEY = 8, ITEM_BYTES = 16;
    /** Flag bits above the table id in {@link #ITEM_TABLE_FLAGS}. */
    static final long FLAG_WRITE = 1L << 32, FLAG_NEEDS_VALUE = 1L << 33;
    static final long TABLE_MASK = 0xffff_ffffL;

    private CalvinRequest() {}

    static int bytes(int accesses) { return ITEMS + accesses * ITEM_BYTES; }

    /** Encodes accesses {@code [0, tx.size())} of {@code tx} at {@code dst[off..)}; returns the bytes written. */
    static int encode(Tx tx, int coordSlot, byte[] dst, int off) {
        int n = tx.size();
        Bytes.putLong(dst, off + TXN, tx.id);
        Bytes.putLong(dst, off + COORD_SLOT, coordSlot);
        Bytes.putLong(dst, off + COUNT, n);
        int p = off + ITEMS;
        for (int i = 0; i < n; i++) {
            Access a = tx.access(i);
            long flags = (a.write ? FLAG_WRITE : 0) | (a.needsValue ? FLAG_NEEDS_VALUE : 0);
            Bytes.putLong(dst, p + ITEM_TABLE_FLAGS, a.table.id | flags);
            Bytes.putLong(dst, p + ITEM_KEY, a.key);
            p += ITEM_BYTES;
        }
        return p - off;
    }

    /** Bytes of the request starting at {@code src[off]}. */
    static int length(byte[] src, int off) { return bytes((int) Bytes.getLong(src, off + COUNT)); }
}
