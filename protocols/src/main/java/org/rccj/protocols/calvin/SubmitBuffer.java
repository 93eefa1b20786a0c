package org.rccj.protocols.calvin;

import org.rccj.framework.txn.Tx;

/**
 * A node's requests for the epoch being collected: coordinators of every worker of the node append, the
 * node's sequencer seals a batch at each epoch boundary. Shared by the node's worker threads on the
 * {@code local} fabric, so every method is synchronized; none of them yields.
 */
final class SubmitBuffer {
    private byte[] buf = new byte[4096];
    private int used;
    private boolean closed;
    /** Requests in the last sealed batch. */
    private int sealedCount;

    /** Appends a request (with OLLP's expected versions if {@code expect}); false once the sequencer closed the node (the run is over). */
    synchronized boolean submit(Tx tx, int coordSlot, boolean expect, int maxPickBytes) {
        if (closed) return false;
        int need = CalvinRequest.bytes(tx.size(), maxPickBytes);
        if (used + need > buf.length) buf = java.util.Arrays.copyOf(buf, Math.max(buf.length * 2, used + need));
        used += CalvinRequest.encode(tx, coordSlot, expect, buf, used);
        return true;
    }

    /**
     * Seals the batch: moves the longest prefix of whole requests that fits in {@code max} bytes to
     * {@code dst[off..)} and keeps the rest for the next epoch. With {@code close}, the node accepts no
     * request afterwards if (and only if) nothing was left behind.
     * @return bytes sealed; {@link #sealedCount()} tells how many requests
     */
    synchronized int seal(byte[] dst, int off, int max, boolean close) {
        int p = 0, count = 0;
        while (p < used) {
            int len = CalvinRequest.length(buf, p);
            if (len > max) {
                throw new IllegalStateException("a CALVIN request of " + len + " bytes exceeds the batch; raise "
                        + org.rccj.framework.config.Settings.optionKey(CalvinSettings.BATCH));
            }
            if (p + len > max) break;
            p += len;
            count++;
        }
        System.arraycopy(buf, 0, dst, off, p);
        System.arraycopy(buf, p, buf, 0, used - p);
        used -= p;
        sealedCount = count;
        if (close && used == 0) closed = true;
        return p;
    }

    synchronized int sealedCount() { return sealedCount; }

    synchronized boolean closed() { return closed; }
}
