package org.rccj.fabrics.sim;

import java.util.Arrays;

/**
 * What one node sent in one window: every entry in the order sent, in one array, chained per receiving node (so a
 * node's sends stay together in memory however many nodes they go to, and each receiver takes only its own). An
 * entry is an event for the receiver's queue, or an op of the receiver whose landing or handling it is told of
 * (decision 0146 point 4). The receivers drain their chains in the next window; the sender empties the box before it
 * fills it again, the window after that.
 */
final class Outbox {
    static final byte EVENT = 0, LANDED = 1, HANDLED = 2;
    private SimOp[] entries = new SimOp[64];
    private byte[] kinds = new byte[64];
    /** The next entry of the same receiver, or -1. */
    private int[] next = new int[64];
    /** Per receiving node: its first and last entry (first -1: none). */
    private final int[] first, last;
    private int n;

    Outbox(int nodes) {
        first = new int[nodes];
        last = new int[nodes];
        Arrays.fill(first, -1);
    }

    /** Adds an entry for node {@code to}; true when it is the first for that node since it last drained. */
    boolean add(SimOp e, byte kind, int to) {
        if (n == entries.length) {
            entries = Arrays.copyOf(entries, n * 2);
            kinds = Arrays.copyOf(kinds, n * 2);
            next = Arrays.copyOf(next, n * 2);
        }
        entries[n] = e;
        kinds[n] = kind;
        next[n] = -1;
        boolean firstOne = first[to] < 0;
        if (firstOne) first[to] = n; else next[last[to]] = n;
        last[to] = n++;
        return firstOne;
    }

    /** The sender, before it fills this box again (every receiver drained it in the window between). */
    void clear() { n = 0; }

    /** Node {@code to}'s entries, in the order sent: events into its queue, the flags of its ops. */
    void drainInto(LogicalProcess to) {
        for (int i = first[to.node]; i >= 0; i = next[i]) {
            SimOp e = entries[i];
            entries[i] = null;
            switch (kinds[i]) {
                case EVENT -> to.queue.push(e, e.time);
                case LANDED -> e.landedOnOneThread();
                default -> e.handled = true;
            }
        }
        first[to.node] = -1;
    }
}
