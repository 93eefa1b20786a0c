package org.rccj.protocols.calvin;

import java.util.Arrays;
import org.rccj.framework.store.Table;

/**
 * A sequenced transaction's part on one participant node: its accesses on this node with their tuple offsets
 * and lock tickets, and where its coordinator waits. Pooled by the node's scheduler (no allocation per
 * transaction once warm).
 */
final class TxnState {
    long txn;
    int coordNode, coordSlot;
    long sealedAt, loggedAt;
    /** Local accesses, and the first one whose lock is not yet known to be granted. */
    int size, next;
    boolean waited;
    int[] access = new int[4];
    Table[] table = new Table[4];
    /** Tuple offset, -1 if the key is absent (nothing to lock). */
    long[] offset = new long[4];
    long[] ticket = new long[4];
    boolean[] write = new boolean[4];

    void init(long txn, int coordNode, int coordSlot, long sealedAt, long loggedAt) {
        this.txn = txn;
        this.coordNode = coordNode;
        this.coordSlot = coordSlot;
        this.sealedAt = sealedAt;
        this.loggedAt = loggedAt;
        size = 0;
        next = 0;
        waited = false;
    }

    void add(int accessIndex, Table t, long off, long tk, boolean w) {
        if (size == access.length) {
            int n = size * 2;
            access = Arrays.copyOf(access, n);
            table = Arrays.copyOf(table, n);
            offset = Arrays.copyOf(offset, n);
            ticket = Arrays.copyOf(ticket, n);
            write = Arrays.copyOf(write, n);
        }
        access[size] = accessIndex;
        table[size] = t;
        offset[size] = off;
        ticket[size] = tk;
        write[size] = w;
        size++;
    }
}
