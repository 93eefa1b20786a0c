package org.rccj.fabrics.cluster;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.rccj.primitives.ProcessGroup;

/**
 * This process's node of a cluster whose nodes are separate processes: the control plane every multi-process
 * fabric shares (docs/architecture.md, fabrics). It listens on its own address, connects to every lower node and accepts every
 * higher one, {@code lanes} connections per pair, each opened by a {@link Handshake} that proves the run's secret
 * and carries the cluster size and the config digest; then the cluster clock is synchronised to node 0's. A network
 * thread serves every connection: it hands the fabric's frames to its {@link DataPlane}, sends a heartbeat each
 * 200 ms on every connection, and stops the run on every node when a peer is silent for {@code peerTimeoutMs},
 * closes its connection, sends a malformed frame, or the launcher is gone. Between join and run a fabric may
 * {@link #exchange} small per-node blobs (addresses, memory keys); the framework meets at {@link #startBarrier} and
 * gathers every node's report at node 0 ({@link #gather}). Node 0 tells every node to stop once all are done.
 */
public final class ClusterNode implements ProcessGroup, AutoCloseable {
    private static final long HEARTBEAT_NS = 200_000_000L;

    private final int nodes, self, lanes;
    private final ClusterSettings settings;
    private final DataPlane plane;
    /** Connections to each peer node per lane ({@code [node][lane]}, none to this node) and all of them in one list. */
    private final Link[][] peers;
    private final List<Link> links = new ArrayList<>();
    /** Local nanoTime of cluster time 0 (node 0's start-up). */
    private volatile long base;
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile boolean stop, closing, closed;
    /** Control messages the network thread received for the calling thread (clock, barrier, exchange, reports). */
    private final LinkedBlockingQueue<Msg> mailbox = new LinkedBlockingQueue<>();
    // the network thread, its selector over every link, and the listening socket (closed once every node joined)
    private final Thread net;
    private final Selector selector;
    private final ServerSocketChannel server;
    private boolean doneSent;
    /** The measured window's start as node 0 announced it (warmup_ms: auto), or Long.MAX_VALUE. */
    private volatile long window = Long.MAX_VALUE;
    private final boolean[] done;
    private int doneCount;

    private record Msg(byte type, int from, long a, long b, byte[] data, byte[][] table) {
        Msg(byte type, int from, long a, long b, byte[] data) { this(type, from, a, b, data, null); }
    }

    /**
     * Starts this node: binds, meets every other node ({@code lanes} connections per pair), syncs the clock, and
     * starts the network thread that feeds {@code plane}. Blocks until every node joined; a {@link ClusterFailure}
     * names what went wrong.
     */
    public static ClusterNode join(ClusterSettings s, int lanes, DataPlane plane) {
        try {
            return new ClusterNode(s, lanes, plane);
        } catch (IOException e) {
            throw new ClusterFailure("node " + s.self() + ": " + e.getMessage());
        }
    }

    private ClusterNode(ClusterSettings s, int lanes, DataPlane plane) throws IOException {
        this.nodes = s.nodes();
        this.self = s.self();
        this.lanes = lanes;
        this.settings = s;
        this.plane = plane;
        if (self < 0 || self >= nodes) throw new ClusterFailure("node id " + self + " is not in 0.." + (nodes - 1));
        done = new boolean[nodes];
        peers = new Link[nodes][];
        for (int n = 0; n < nodes; n++) peers[n] = n == self ? null : new Link[lanes];
        base = System.nanoTime();
        InetSocketAddress mine = s.hosts().get(self);
        server = ServerSocketChannel.open();
        try {
            server.bind(mine);
        } catch (IOException e) {
            server.close();
            throw new ClusterFailure("node " + self + ": cannot listen on " + str(mine) + ": " + e.getMessage());
        }
        selector = Selector.open();
        try {
            new Bootstrap(this, s, lanes, server, peers, links).meetEveryNode();
        } catch (IOException | RuntimeException e) {
            closeAll();
            if (e instanceof ClusterFailure f) throw f;
            throw new ClusterFailure("node " + self + ": start-up failed: " + e.getMessage());
        }
        server.close();          // everyone is here: a late connection (a next run's node) must be refused, not queued
        for (Link p : links) {
            p.ch.configureBlocking(false);
            p.key = p.ch.register(selector, SelectionKey.OP_READ, p);
            p.lastHeard = System.nanoTime();
            plane.connected(p);
        }
        net = new Thread(this::netLoop, "rcc-nic-" + self);
        net.setDaemon(true);
        net.start();
        if (self != 0) syncClock();
    }

    // ---------------------------------------------------------------- start-up

    private void syncClock() {
        long best = Long.MAX_VALUE, bestBase = base;
        for (int i = 0; i < 8; i++) {
            long t0 = System.nanoTime();
            peers[0][0].control(Control.CLOCK_REQ, t0, 0, null);
            Msg m = await(Control.CLOCK_RESP, -1);
            long t1 = System.nanoTime();
            if (m.a != t0) continue;
            if (t1 - t0 < best) {
                best = t1 - t0;
                bestBase = (t0 + t1) / 2 - m.b;
            }
        }
        base = bestBase;
    }

    private Msg await(byte type, long timeoutMs) {
        long deadline = timeoutMs < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutMs * 1_000_000L;
        while (true) {
            checkFailure();
            Msg m;
            try {
                m = mailbox.poll(50, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ClusterFailure("node " + self + ": interrupted");
            }
            if (m != null) {
                if (m.type == type) return m;
                throw new ClusterFailure("node " + self + ": unexpected control message " + m.type + " from node " + m.from + " while waiting for " + type);
            }
            if (System.nanoTime() > deadline) throw new ClusterFailure("node " + self + ": timed out waiting for control message " + type);
        }
    }

    /** Throws the reason the run stopped, if it did. */
    public void checkFailure() {
        String f = failure.get();
        if (f != null) throw new ClusterFailure(f);
    }

    // ---------------------------------------------------------------- what the fabric and the framework use

    @Override public int self() { return self; }
    public int nodes() { return nodes; }

    /** Lane {@code lane} of the connections to {@code node} (not this node). */
    public Link link(int node, int lane) { return peers[node][lane]; }

    /** Cluster time, ns: node 0's clock, zero at its start-up. */
    public long now() { return System.nanoTime() - base; }

    /** The local {@code System.nanoTime()} of cluster time 0 (fixed once {@link #join} returned). */
    public long base() { return base; }

    /** True once node 0 said every node is done, or the run failed: workers leave their loops. */
    public boolean stopped() { return stop; }

    /** How many connections this node has to its peers (tests: the layout really is the one asked for). */
    public int connections() { return links.size(); }

    /** The reason the run stopped, or null. */
    public String failure() { return failure.get(); }

    /** The address node {@code node} listens on, for messages. */
    public String address(int node) { return str(settings.hosts().get(node)); }

    /**
     * Exchanges a small blob per node (a fabric's addresses, memory keys; at most {@link Control#MAX_BLOB} bytes)
     * through node 0: every node gets every node's blob, indexed by node. Every node must call it, between
     * {@link #join} and {@link #startBarrier}.
     */
    public byte[][] exchange(byte[] mine) {
        if (mine.length > Control.MAX_BLOB) throw new IllegalArgumentException("a blob of " + mine.length + " bytes (at most " + Control.MAX_BLOB + ")");
        if (self != 0) {
            peers[0][0].control(Control.EXCHANGE, 0, 0, mine);
            return await(Control.EXCHANGE_ALL, -1).table;
        }
        byte[][] all = new byte[nodes][];
        all[0] = mine.clone();
        int size = 4 * nodes + mine.length;
        for (int k = 1; k < nodes; k++) {
            Msg m = await(Control.EXCHANGE, -1);
            all[m.from] = m.data;
            size += m.data.length;
        }
        if (size > Control.MAX_FRAME - 1) {
            String why = "the nodes' blobs add up to " + size + " bytes, more than one frame holds (" + (Control.MAX_FRAME - 1) + ")";
            fail(why);
            throw new ClusterFailure(why);
        }
        ByteBuffer table = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        for (byte[] b : all) table.putInt(b.length).put(b);
        for (int n = 1; n < nodes; n++) peers[n][0].control(Control.EXCHANGE_ALL, 0, 0, table.array());
        return all;
    }

    @Override
    public long startBarrier(byte[] descriptor) {
        long start;
        if (self == 0) {
            for (int k = 1; k < nodes; k++) {
                Msg m = await(Control.READY, -1);
                if (!Arrays.equals(m.data, descriptor)) {
                    String why = "node " + m.from + " registered other memory regions than node 0 (different build or config)";
                    fail(why);
                    throw new ClusterFailure(why);
                }
            }
            start = now() + 2_000_000L;
            for (int n = 1; n < nodes; n++) peers[n][0].control(Control.GO, start, 0, null);
        } else {
            peers[0][0].control(Control.READY, 0, 0, descriptor);
            start = await(Control.GO, -1).a;
        }
        while (now() < start) Thread.onSpinWait();
        return start;
    }

    @Override
    public void announceWindow(long start) {
        if (self != 0) return;
        window = start;
        for (int n = 1; n < nodes; n++) peers[n][0].control(Control.WINDOW, start, 0, null);
    }

    @Override
    public long announcedWindow() { return window; }

    @Override
    public byte[][] gather(byte[] mine) {
        if (self != 0) {
            for (int off = 0; off < mine.length || off == 0; off += Control.REPORT_CHUNK) {
                int len = Math.min(Control.REPORT_CHUNK, mine.length - off);
                boolean last = off + len >= mine.length;
                if (last) closing = true;     // the others may finish and leave from now on
                peers[0][0].control(Control.REPORT, last ? 1 : 0, 0, Arrays.copyOfRange(mine, off, off + len));
                if (last) break;
            }
            await(Control.BYE, -1);
            return null;
        }
        byte[][] all = new byte[nodes][];
        all[0] = mine;
        for (int k = 1; k < nodes; k++) {
            Msg m = await(Control.REPORT, -1);
            all[m.from] = m.data;
        }
        closing = true;
        for (Link p : links) p.control(Control.BYE, 0, 0, null);       // on every connection: each may close after it
        return all;
    }

    /** Stops the run here and on every peer (best effort), once; the first reason wins. */
    public void fail(String why) {
        if (!failure.compareAndSet(null, why)) return;
        stop = true;
        plane.stopping();
        byte[] msg = why.getBytes(StandardCharsets.UTF_8);
        for (Link p : links) {
            try {
                p.control(Control.ABORT, 0, 0, msg);
            } catch (RuntimeException ignored) {
                // the peer may be the one that is gone
            }
        }
        selector.wakeup();
    }

    /** Wakes the network thread (something for it to do: a blocked link, work that waited). */
    public void wakeup() { selector.wakeup(); }

    boolean onNetworkThread() { return Thread.currentThread() == net; }

    @Override
    public void close() {
        closing = true;
        closed = true;
        stop = true;                 // workers of a run that did not end (a failed start, tests) leave too
        if (net != null) {
            selector.wakeup();
            try {
                net.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeAll();
    }

    private void closeAll() {
        for (Link p : links) {
            try {
                p.ch.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
        try {
            server.close();
            selector.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    // ---------------------------------------------------------------- the network thread

    private void netLoop() {
        long lastBeat = 0;
        byte[][] scratch = {new byte[4096]};
        try {
            while (!closed) {
                selector.select(10);
                for (SelectionKey k : selector.selectedKeys()) {
                    Link p = (Link) k.attachment();
                    if (!k.isValid()) continue;
                    if (k.isReadable()) read(p, scratch);
                    if (k.isValid() && k.isWritable()) p.flush();
                }
                selector.selectedKeys().clear();
                plane.pass();
                long now = System.nanoTime();
                for (int i = 0; i < links.size(); i++) {
                    Link p = links.get(i);
                    if (p.dead) continue;
                    if (p.dirty) {
                        p.dirty = false;
                        p.flush();
                    }
                    int want = p.blocked ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
                    if (p.key.isValid() && p.key.interestOps() != want) p.key.interestOps(want);
                    if (!mayLeave(p) && failure.get() == null && now - p.lastHeard > settings.peerTimeoutMs() * 1_000_000L) {
                        fail("node " + p.node + " (" + address(p.node) + ") sent nothing for "
                                + settings.peerTimeoutMs() / 1000.0 + " s: it hung or the network failed");
                    }
                }
                if (now - lastBeat > HEARTBEAT_NS) {
                    lastBeat = now;
                    for (Link p : links) if (!p.dead) p.control(Control.HEARTBEAT, 0, 0, null);      // every connection
                    if (settings.watchParent() && LauncherWatch.gone()) fail("node " + self + ": the launcher is gone; stopping");
                }
                if (!doneSent && plane.finished()) {
                    doneSent = true;
                    if (self == 0) nodeDone(0); else peers[0][0].control(Control.DONE, 0, 0, null);
                }
            }
        } catch (Throwable t) {
            fail("node " + self + ": network thread failed: " + t);
        }
    }

    private void nodeDone(int node) {
        if (done[node]) return;
        done[node] = true;
        if (++doneCount == nodes) {
            for (int n = 1; n < nodes; n++) peers[n][0].control(Control.STOP, 0, 0, null);
            stop = true;
        }
    }

    /** Reads what the connection has and handles every complete frame (the network thread). */
    private void read(Link p, byte[][] scratch) {
        int n;
        try {
            n = p.ch.read(p.in);
        } catch (IOException e) {
            n = -1;
        }
        if (n < 0) {
            lost(p, "disconnected");
            return;
        }
        p.lastHeard = System.nanoTime();
        ByteBuffer in = p.in;
        in.flip();
        int need = 0;
        try {
            while (in.remaining() >= 4) {
                int len = in.getInt(in.position());
                if (len < 1 || len > Control.MAX_FRAME) throw new Malformed("frame length " + len + " (accepted: 1.." + Control.MAX_FRAME + ")");
                if (in.remaining() < 4 + len) {
                    need = 4 + len;
                    break;
                }
                int end = in.position() + 4 + len, limit = in.limit();
                in.position(in.position() + 4);
                in.limit(end);
                try {
                    frame(p, in.get(), in, scratch);
                } catch (BufferUnderflowException e) {
                    throw new Malformed("a frame shorter than its content");
                }
                if (in.position() != end) throw new Malformed("a frame longer than its content");
                in.limit(limit);
            }
        } catch (Malformed e) {
            malformed(p, e);
            return;
        }
        if (need > in.capacity()) {
            ByteBuffer nb = ByteBuffer.allocateDirect(Math.max(need, in.capacity() * 2)).order(ByteOrder.LITTLE_ENDIAN);
            nb.put(in);
            p.in = nb;
        } else {
            in.compact();
        }
    }

    /**
     * True when a peer may close its connection without stopping the run: it said goodbye, or this node has sent its
     * report and the peer is not node 0 (whose goodbye we still wait for), or (node 0) every report is in.
     */
    boolean mayLeave(Link p) { return p.bye || closed || (closing && p.node != 0); }

    private void lost(Link p, String what) {
        p.dead = true;
        p.key.cancel();
        try {
            p.ch.close();
        } catch (IOException ignored) {
            // gone anyway
        }
        if (!mayLeave(p)) fail("node " + p.node + " (" + address(p.node) + ") " + what + " during the run");
    }

    /** A peer sent something this node refuses: the run stops and its connection is closed. */
    public void malformed(Link p, Malformed e) {
        p.dead = true;
        fail("node " + self + ": node " + p.node + " sent " + e.getMessage() + "; closed its connection");
        try {
            p.ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private void frame(Link p, byte type, ByteBuffer in, byte[][] scratch) throws Malformed {
        if (type > 0 && type < Control.FIRST) {
            plane.frame(p, type, in, scratch);
            return;
        }
        switch (type) {
            case Control.HEARTBEAT -> { }
            case Control.DONE -> {
                if (self != 0) throw new Malformed("a DONE message to node " + self);
                nodeDone(p.node);
            }
            case Control.STOP -> stop = true;
            case Control.ABORT -> {
                p.bye = true;
                fail(new String(rest(in), StandardCharsets.UTF_8));
            }
            case Control.BYE -> {
                p.bye = true;
                if (p.lane == 0) mailbox.add(new Msg(type, p.node, 0, 0, null));
            }
            case Control.CLOCK_REQ -> p.control(Control.CLOCK_RESP, in.getLong(), now(), null);
            case Control.CLOCK_RESP -> {
                long a = in.getLong(), b = in.getLong();
                mailbox.add(new Msg(type, p.node, a, b, null));
            }
            case Control.READY -> mailbox.add(new Msg(type, p.node, 0, 0, rest(in)));
            case Control.GO -> mailbox.add(new Msg(type, p.node, in.getLong(), 0, null));
            case Control.WINDOW -> {
                if (p.node != 0) throw new Malformed("a WINDOW message, which only node 0 sends");
                window = in.getLong();
            }
            case Control.REPORT -> {
                boolean last = in.get() != 0;
                if (p.report == null) p.report = new ByteArrayOutputStream();
                p.report.writeBytes(rest(in));
                if (last) {
                    mailbox.add(new Msg(type, p.node, 0, 0, p.report.toByteArray()));
                    p.report = null;
                }
            }
            case Control.EXCHANGE -> {
                if (self != 0) throw new Malformed("an EXCHANGE message to node " + self);
                if (in.remaining() > Control.MAX_BLOB) throw new Malformed("a blob of " + in.remaining() + " bytes (at most " + Control.MAX_BLOB + ")");
                mailbox.add(new Msg(type, p.node, 0, 0, rest(in)));
            }
            case Control.EXCHANGE_ALL -> {
                if (p.node != 0) throw new Malformed("an EXCHANGE_ALL message, which only node 0 sends");
                byte[][] table = new byte[nodes][];
                for (int n = 0; n < nodes; n++) {
                    int len = in.getInt();
                    if (len < 0 || len > in.remaining()) throw new Malformed("a blob of " + len + " bytes in a shorter frame");
                    in.get(table[n] = new byte[len]);
                }
                mailbox.add(new Msg(type, p.node, 0, 0, null, table));
            }
            default -> throw new Malformed("a frame of unknown type " + type);
        }
    }

    private static byte[] rest(ByteBuffer in) {
        byte[] b = new byte[in.remaining()];
        in.get(b);
        return b;
    }

    static String str(InetSocketAddress a) { return a.getHostString() + ":" + a.getPort(); }

}
