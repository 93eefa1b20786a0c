package org.rccj.fabrics.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One authenticated connection to a peer node: lane {@code lane} of the pair (lane 0 also carries the control
 * frames). Its outgoing buffer is guarded by its monitor: a fabric encodes its frames into {@link #reserve} while
 * holding it. What the socket does not take at {@link #flush} the network thread finishes.
 */
public final class Link {
    public final int node, lane;
    final SocketChannel ch;
    private final ClusterNode cluster;
    SelectionKey key;
    ByteBuffer in = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private ByteBuffer out = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    /** The socket did not take everything: the network thread finishes the write when it can. */
    volatile boolean blocked;
    /** Written to by the network thread (a response): it flushes the link on its next pass. */
    volatile boolean dirty;
    volatile long lastHeard;
    volatile boolean dead, bye;
    ByteArrayOutputStream report;

    Link(ClusterNode cluster, int node, int lane, SocketChannel ch) {
        this.cluster = cluster;
        this.node = node;
        this.lane = lane;
        this.ch = ch;
    }

    /** Room for {@code bytes} more in the outgoing buffer (caller holds the monitor); the buffer to write into. */
    public ByteBuffer reserve(int bytes) {
        if (out.remaining() < bytes) {
            ByteBuffer nb = ByteBuffer.allocateDirect(Math.max(out.capacity() * 2, out.position() + bytes)).order(ByteOrder.LITTLE_ENDIAN);
            out.flip();
            nb.put(out);
            out = nb;
        }
        return out;
    }

    /** The outgoing buffer as it is now (caller holds the monitor). */
    public ByteBuffer out() { return out; }

    /** True while the socket has not taken everything written so far. */
    public boolean blocked() { return blocked; }

    /** The network thread wrote to this link: it flushes it on its next pass. */
    public void markDirty() { dirty = true; }

    /** Writes what the socket takes now; the rest is left to the network thread. */
    public synchronized void flush() {
        if (dead || out.position() == 0) {
            if (blocked) blocked = false;
            return;
        }
        out.flip();
        try {
            ch.write(out);
        } catch (IOException e) {
            out.clear();
            dead = true;
            if (!cluster.mayLeave(this)) cluster.fail("node " + node + " (" + cluster.address(node) + ") disconnected during the run");
            return;
        }
        boolean rest = out.hasRemaining();
        out.compact();
        if (rest != blocked) {
            blocked = rest;
            if (rest && !cluster.onNetworkThread()) cluster.wakeup();
        }
    }

    /** Queues a control frame and writes it now. */
    void control(byte type, long a, long b, byte[] data) {
        synchronized (this) {
            if (dead) return;
            int len = 1 + switch (type) {
                case Control.CLOCK_REQ, Control.GO, Control.WINDOW -> 8;
                case Control.CLOCK_RESP -> 16;
                case Control.REPORT -> 1 + data.length;
                case Control.READY, Control.ABORT, Control.EXCHANGE, Control.EXCHANGE_ALL -> data.length;
                default -> 0;
            };
            ByteBuffer o = reserve(4 + len);
            o.putInt(len).put(type);
            switch (type) {
                case Control.CLOCK_REQ, Control.GO, Control.WINDOW -> o.putLong(a);
                case Control.CLOCK_RESP -> o.putLong(a).putLong(b);
                case Control.REPORT -> o.put((byte) a).put(data);
                case Control.READY, Control.ABORT, Control.EXCHANGE, Control.EXCHANGE_ALL -> o.put(data);
                default -> { }
            }
        }
        flush();
    }
}
