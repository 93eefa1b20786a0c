package org.rccj.protocols.calvin;

import java.util.Arrays;

/**
 * Hand-off from a node's scheduler (which takes the tickets, in the global order) to the participant loop of one
 * worker (which waits for the grants and forwards): transaction parts in order, and their recycled states. The
 * scheduler and the participant may run on different threads ({@code local}), so every method is synchronized;
 * none of them yields.
 */
final class ParticipantQueue {
    private TxnState[] items = new TxnState[64];
    private int head, size;
    private TxnState[] free = new TxnState[64];
    private int freeCount;
    /** Set after the scheduler's last offer: nothing more will come. */
    private volatile boolean closed;

    synchronized TxnState obtain() { return freeCount > 0 ? free[--freeCount] : new TxnState(); }

    synchronized void recycle(TxnState s) {
        if (freeCount == free.length) free = Arrays.copyOf(free, freeCount * 2);
        free[freeCount++] = s;
    }

    /** Appends {@code parts[0..n)} in order. */
    synchronized void offer(TxnState[] parts, int n) {
        if (size + n > items.length) {
            TxnState[] grown = new TxnState[Math.max(items.length * 2, size + n)];
            for (int i = 0; i < size; i++) grown[i] = items[(head + i) % items.length];
            items = grown;
            head = 0;
        }
        for (int i = 0; i < n; i++) items[(head + size + i) % items.length] = parts[i];
        size += n;
    }

    /** Moves up to {@code dst.length - off} parts, in order, to {@code dst[off..)}; returns how many. */
    synchronized int drain(TxnState[] dst, int off) {
        int n = Math.min(size, dst.length - off);
        for (int i = 0; i < n; i++) {
            dst[off + i] = items[head];
            items[head] = null;
            head = (head + 1) % items.length;
        }
        size -= n;
        return n;
    }

    /** After the last {@link #offer}. */
    void close() { closed = true; }

    boolean closed() { return closed; }
}
