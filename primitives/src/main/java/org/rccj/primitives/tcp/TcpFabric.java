package org.rccj.primitives.tcp;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Counters;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.MemoryOps;
import org.rccj.primitives.Op;
import org.rccj.primitives.ProcessGroup;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Verb;
import org.rccj.primitives.ThreadWorker;
import org.rccj.primitives.WorkerHost;

/**
 * One node of a cluster whose nodes are separate processes talking TCP (design.md, fabrics). This process owns
 * its node's registered memory and worker threads; a network thread (the soft NIC) owns the non-blocking,
 * TCP_NODELAY connections to the peer processes (one per peer, or one per worker thread and peer: {@link
 * TcpSettings.Connections}), serves one-sided READ/WRITE/CAS/FAA arriving from the wire directly on
 * registered memory (never through a worker, so one-sided costs no worker CPU at the target), and hands RPC
 * requests to the target worker's event loop. Workers encode their own frames into the peer's outgoing buffer and
 * write it at the end of each event-loop pass (posts of that pass leave in one write); what the socket does not
 * take the network thread finishes.
 *
 * <p>Memory of the other nodes exists here too, as an unused shadow (the store loads every node's rows the same
 * way in every process, so region ids and offsets agree); after the run node 0 overwrites the shadows with the
 * nodes' final memory to check the workload invariants.
 *
 * <p>Start-up ({@link #join}): listen on our own address, connect to every lower node and accept every higher one,
 * each connection opened by a handshake that proves the run's secret (HMAC) and carries the cluster size and the
 * config digest; then the cluster clock is synchronised to node 0's. Every peer sends a heartbeat each 200 ms; a
 * peer silent for {@code peerTimeoutMs}, a closed connection or a malformed frame stops the run on every node.
 */
public final class TcpFabric implements Fabric, ProcessGroup {
    private static final long SPIN_NS = 20_000, PARK_NS = 50_000, HEARTBEAT_NS = 200_000_000L;
    /** Coroutine resumes per event-loop pass before the loop polls and writes again. */
    private static final int RESUMES_PER_PASS = 16;

    private final int nodes, threads, self;
    private final CostProfile cost;
    private final TcpSettings settings;
    private final RegisteredMemory[] memory;
    private final TcpWorker[] workers;
    private final Endpoint[][] views;
    /** Connections to each peer node per lane ({@code [node][lane]}, none to this node) and all of them in one list. */
    private final Peer[][] peers;
    private final List<Peer> links = new ArrayList<>();
    /**
     * Connections per peer node (TcpSettings.Connections): 1 (one per process pair, shared by all workers) or
     * {@code threads} (worker t's requests to node j go over lane t of j, and come back on it).
     */
    private final int lanes;
    private final Selector selector;
    private final ServerSocketChannel server;
    private final Thread nic;
    /** Local nanoTime of cluster time 0 (node 0's start-up). */
    private volatile long base;
    private final AtomicInteger unfinished = new AtomicInteger();
    /** Ops posted by this node's workers that have not completed (remote ops and cross-worker replies). */
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final LinkedBlockingQueue<Msg> mailbox = new LinkedBlockingQueue<>();
    private final ConcurrentLinkedQueue<Op> callPool = new ConcurrentLinkedQueue<>();
    private volatile boolean running, stop, closing, closed;
    private boolean doneSent;
    /**
     * local_access: network: an RPC to the own node is a message served by the target worker at its next poll
     * (it counts as a network op); a one-sided op on the own node counts as a network op but is executed by the
     * issuing worker, as the soft NIC would execute it on the same memory (no loopback hop is modelled on tcp).
     */
    private boolean viaNic;
    private final boolean[] done;
    private int doneCount;
    /**
     * Set by {@link #run} once every worker's host is installed. A peer may start sending RPCs at the start instant,
     * before this node's run() has installed the hosts that know the handler ids: such RPCs are held (network
     * thread only) and checked and delivered, in arrival order, once it is set.
     */
    private volatile boolean hostsReady;
    private final java.util.ArrayDeque<Op> held = new java.util.ArrayDeque<>();

    private record Msg(byte type, int from, long a, long b, byte[] data) {}

    /** Starts this node: binds, meets every other node (handshake), syncs the clock. Blocks until all joined. */
    public static TcpFabric join(int threads, CostProfile cost, TcpSettings s) {
        try {
            return new TcpFabric(threads, cost, s);
        } catch (IOException e) {
            throw new TcpFailure("node " + s.self() + ": " + e.getMessage());
        }
    }

    private TcpFabric(int threads, CostProfile cost, TcpSettings s) throws IOException {
        this.nodes = s.nodes();
        this.threads = threads;
        this.self = s.self();
        this.cost = cost;
        this.settings = s;
        if (self < 0 || self >= nodes) throw new TcpFailure("node id " + self + " is not in 0.." + (nodes - 1));
        lanes = s.connections() == TcpSettings.Connections.THREAD ? threads : 1;
        memory = new RegisteredMemory[nodes];
        views = new Endpoint[nodes][threads];
        workers = new TcpWorker[threads];
        done = new boolean[nodes];
        for (int n = 0; n < nodes; n++) {
            memory[n] = n == self ? new RegisteredMemory(n) : RegisteredMemory.shadow(n);
            for (int t = 0; t < threads; t++) views[n][t] = n == self ? null : new RemoteView(n, t);
        }
        for (int t = 0; t < threads; t++) {
            workers[t] = new TcpWorker(t);
            views[self][t] = workers[t];
        }
        peers = new Peer[nodes][];
        for (int n = 0; n < nodes; n++) peers[n] = n == self ? null : new Peer[lanes];
        base = System.nanoTime();
        InetSocketAddress mine = s.hosts().get(self);
        server = ServerSocketChannel.open();
        try {
            server.bind(mine);
        } catch (IOException e) {
            server.close();
            throw new TcpFailure("node " + self + ": cannot listen on " + str(mine) + ": " + e.getMessage());
        }
        selector = Selector.open();
        try {
            bootstrap();
        } catch (IOException | RuntimeException e) {
            closeAll();
            if (e instanceof TcpFailure f) throw f;
            throw new TcpFailure("node " + self + ": start-up failed: " + e.getMessage());
        }
        server.close();          // everyone is here: a late connection (a next run's node) must be refused, not queued
        for (Peer p : links) {
            p.ch.configureBlocking(false);
            p.key = p.ch.register(selector, SelectionKey.OP_READ, p);
            p.lastHeard = System.nanoTime();
        }
        nic = new Thread(this::nicLoop, "rcc-nic-" + self);
        nic.setDaemon(true);
        nic.start();
        if (self != 0) syncClock();
    }

    // ---------------------------------------------------------------- start-up

    private final SecureRandom random = new SecureRandom();

    private void bootstrap() throws IOException {
        long deadline = System.nanoTime() + settings.joinTimeoutMs() * 1_000_000L;
        for (int j = 0; j < self; j++) {
            for (int l = 0; l < lanes; l++) links.add(peers[j][l] = connect(j, l, deadline, random));
        }
        server.socket().setSoTimeout(100);
        int missing = (nodes - 1 - self) * lanes;
        while (missing > 0) {
            if (System.nanoTime() > deadline) {
                List<String> names = new ArrayList<>();
                for (int j = self + 1; j < nodes; j++) if (java.util.Arrays.asList(peers[j]).contains(null)) names.add("node " + j + " (" + str(settings.hosts().get(j)) + ")");
                throw new TcpFailure(String.join(", ", names) + " did not join within "
                        + settings.joinTimeoutMs() / 1000.0 + " s");
            }
            SocketChannel ch;
            try {
                ch = server.socket().accept().getChannel();
            } catch (java.net.SocketTimeoutException e) {
                continue;
            }
            Peer p = accept(ch);
            if (p != null) {
                links.add(peers[p.node][p.lane] = p);
                missing--;
            }
        }
    }

    private Peer connect(int j, int lane, long deadline, SecureRandom rnd) throws IOException {
        InetSocketAddress addr = settings.hosts().get(j);
        String lastProblem = "";
        while (true) {
            SocketChannel ch = SocketChannel.open();
            try {
                ch.socket().connect(addr, 1000);
                // on loopback a connect to a port nobody listens on can pick that very port as its own and "succeed"
                if (ch.getLocalAddress().equals(ch.getRemoteAddress())) throw new IOException("connected to itself");
            } catch (IOException e) {
                ch.close();
                lastProblem = e.getMessage();
                if (System.nanoTime() > deadline) {
                    throw new TcpFailure("node " + j + " (" + str(addr) + ") did not join within " + settings.joinTimeoutMs() / 1000.0 + " s"
                            + (lastProblem == null || lastProblem.equals("Connection refused") ? "" : " (" + lastProblem + ")"));
                }
                sleep(50);
                continue;
            }
            configure(ch);
            ch.socket().setSoTimeout((int) Math.max(1000, settings.joinTimeoutMs()));
            DataOutputStream out = new DataOutputStream(ch.socket().getOutputStream());
            DataInputStream in = new DataInputStream(ch.socket().getInputStream());
            byte[] nonce = new byte[Wire.NONCE], challenge = new byte[Wire.NONCE];
            rnd.nextBytes(nonce);
            int status;
            try {
                in.readFully(challenge);
                Wire.Hello.create(settings.secret(), self, j, nodes, lane, settings.configDigest(), nonce, challenge).write(out);
                status = in.readUnsignedByte();
            } catch (IOException e) {
                ch.close();         // e.g. a listener of a previous run about to close: try again
                settings.log().println("rcc: node " + self + ": handshake with node " + j + " (" + str(addr) + ") failed (" + e + "); trying again");
                if (System.nanoTime() > deadline) {
                    throw new TcpFailure("node " + j + " (" + str(addr) + ") closed the connection during the handshake");
                }
                sleep(50);
                continue;
            }
            if (status != 0) {
                String why = in.readUTF();
                ch.close();
                throw new TcpFailure("node " + j + " (" + str(addr) + ") refused this node: " + why);
            }
            byte[] ack = new byte[Wire.MAC];
            in.readFully(ack);
            if (!java.security.MessageDigest.isEqual(ack, Wire.mac(settings.secret(), "ack", j, self, nodes, lane, settings.configDigest(), nonce, challenge))) {
                ch.close();
                throw new TcpFailure("node " + j + " (" + str(addr) + ") does not know the run's secret: refused");
            }
            ch.socket().setSoTimeout(0);
            return new Peer(j, lane, ch);
        }
    }

    /** Reads and checks a handshake; null (and one log line naming the peer) when refused. */
    private Peer accept(SocketChannel ch) throws IOException {
        String who = String.valueOf(ch.getRemoteAddress());
        try {
            configure(ch);
            ch.socket().setSoTimeout(2000);
            DataInputStream in = new DataInputStream(ch.socket().getInputStream());
            DataOutputStream out = new DataOutputStream(ch.socket().getOutputStream());
            byte[] challenge = new byte[Wire.NONCE];
            random.nextBytes(challenge);
            out.write(challenge);
            out.flush();
            Wire.Hello h = Wire.Hello.read(in);
            String problem = h.problem(settings.secret(), self, nodes, lanes, settings.configDigest(), challenge);
            if (problem == null && peers[h.from()][h.lane()] != null) {
                problem = "node " + h.from() + (lanes > 1 ? " (connection " + h.lane() + ")" : "") + " is already connected";
            }
            if (problem != null) {
                String claimed = h.from() >= 0 ? " claiming to be node " + h.from() : "";
                settings.log().println("rcc: node " + self + " refused a connection from " + who + claimed + ": " + problem);
                out.writeByte(1);
                out.writeUTF(problem);
                out.flush();
                ch.close();
                return null;
            }
            out.writeByte(0);
            out.write(Wire.mac(settings.secret(), "ack", self, h.from(), nodes, h.lane(), settings.configDigest(), h.nonce(), challenge));
            out.flush();
            ch.socket().setSoTimeout(0);
            return new Peer(h.from(), h.lane(), ch);
        } catch (IOException e) {
            settings.log().println("rcc: node " + self + " refused a connection from " + who + ": handshake failed (" + e.getMessage() + ")");
            ch.close();
            return null;
        }
    }

    private static void configure(SocketChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.setOption(StandardSocketOptions.SO_KEEPALIVE, true);
    }

    private void syncClock() {
        long best = Long.MAX_VALUE, bestBase = base;
        for (int i = 0; i < 8; i++) {
            long t0 = System.nanoTime();
            peers[0][0].control(Wire.CLOCK_REQ, t0, 0, null);
            Msg m = await(Wire.CLOCK_RESP, -1);
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
                throw new TcpFailure("node " + self + ": interrupted");
            }
            if (m != null) {
                if (m.type == type) return m;
                throw new TcpFailure("node " + self + ": unexpected control message " + m.type + " from node " + m.from + " while waiting for " + type);
            }
            if (System.nanoTime() > deadline) throw new TcpFailure("node " + self + ": timed out waiting for control message " + type);
        }
    }

    private void checkFailure() {
        String f = failure.get();
        if (f != null) throw new TcpFailure(f);
    }

    // ---------------------------------------------------------------- ProcessGroup

    @Override public int self() { return self; }

    @Override
    public long startBarrier(byte[] descriptor) {
        long start;
        if (self == 0) {
            for (int k = 1; k < nodes; k++) {
                Msg m = await(Wire.READY, -1);
                if (!java.util.Arrays.equals(m.data, descriptor)) {
                    String why = "node " + m.from + " registered other memory regions than node 0 (different build or config)";
                    fail(why);
                    throw new TcpFailure(why);
                }
            }
            start = now() + 2_000_000L;
            for (int n = 1; n < nodes; n++) peers[n][0].control(Wire.GO, start, 0, null);
        } else {
            peers[0][0].control(Wire.READY, 0, 0, descriptor);
            start = await(Wire.GO, -1).a;
        }
        while (now() < start) Thread.onSpinWait();
        return start;
    }

    @Override
    public byte[][] gather(byte[] mine) {
        if (self != 0) {
            for (int off = 0; off < mine.length || off == 0; off += Wire.REPORT_CHUNK) {
                int len = Math.min(Wire.REPORT_CHUNK, mine.length - off);
                boolean last = off + len >= mine.length;
                if (last) closing = true;     // the others may finish and leave from now on
                peers[0][0].control(Wire.REPORT, last ? 1 : 0, 0, java.util.Arrays.copyOfRange(mine, off, off + len));
                if (last) break;
            }
            await(Wire.BYE, -1);
            return null;
        }
        byte[][] all = new byte[nodes][];
        all[0] = mine;
        for (int k = 1; k < nodes; k++) {
            Msg m = await(Wire.REPORT, -1);
            all[m.from] = m.data;
        }
        closing = true;
        for (Peer p : links) p.control(Wire.BYE, 0, 0, null);       // on every connection: each may close after it
        return all;
    }

    // ---------------------------------------------------------------- Fabric

    @Override public String name() { return "tcp"; }
    @Override public int nodes() { return nodes; }
    @Override public int threads() { return threads; }
    @Override public RegisteredMemory memory(int node) { return memory[node]; }
    @Override public Endpoint endpoint(int node, int worker) { return views[node][worker]; }
    @Override public boolean hosts(int node) { return node == self; }
    @Override public long origin() { return 0; }

    /** Cluster time, ns: node 0's clock, zero at its start-up. */
    long now() { return System.nanoTime() - base; }

    @Override
    public void run(WorkerHost[][] hosts) {
        checkFailure();
        unfinished.set(threads);
        Thread[] ts = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            TcpWorker w = workers[t];
            w.host = hosts[self][t];
            ts[t] = new Thread(w::loop, "rcc-worker-" + self + "-" + t);
            ts[t].setDaemon(true);
            w.thread = ts[t];
        }
        hostsReady = true;
        selector.wakeup();       // RPCs held until now are checked and delivered
        running = true;
        for (Thread th : ts) th.start();
        for (Thread th : ts) {
            try {
                th.join();
            } catch (InterruptedException e) {
                fail("node " + self + ": interrupted");
                Thread.currentThread().interrupt();
            }
        }
        running = false;
        checkFailure();
    }

    /** Stops the run here and on every peer (best effort), once; the first reason wins. */
    void fail(String why) {
        if (!failure.compareAndSet(null, why)) return;
        stop = true;
        for (TcpWorker w : workers) if (w.thread != null) LockSupport.unpark(w.thread);
        byte[] msg = why.getBytes(StandardCharsets.UTF_8);
        for (Peer p : links) {
            try {
                p.control(Wire.ABORT, 0, 0, msg);
            } catch (RuntimeException ignored) {
                // the peer may be the one that is gone
            }
        }
        selector.wakeup();
    }

    /** How many connections this node has to its peers (tests: the layout really is the one asked for). */
    int connections() { return links.size(); }

    /** The reason the run stopped, or null. */
    public String failure() { return failure.get(); }

    @Override
    public void close() {
        closing = true;
        closed = true;
        stop = true;                 // workers of a run that did not end (a failed start, tests) leave too
        if (nic != null) {
            selector.wakeup();
            try {
                nic.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        closeAll();
    }

    private void closeAll() {
        for (Peer p : links) {
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

    // ---------------------------------------------------------------- the network thread (soft NIC)

    private void nicLoop() {
        long lastBeat = 0;
        byte[][] scratch = {new byte[4096]};
        try {
            while (!closed) {
                selector.select(10);
                for (SelectionKey k : selector.selectedKeys()) {
                    Peer p = (Peer) k.attachment();
                    if (!k.isValid()) continue;
                    if (k.isReadable()) read(p, scratch);
                    if (k.isValid() && k.isWritable()) p.flush();
                }
                selector.selectedKeys().clear();
                if (hostsReady && !held.isEmpty()) deliverHeld();
                long now = System.nanoTime();
                for (int i = 0; i < links.size(); i++) {
                    Peer p = links.get(i);
                    if (p.dead) continue;
                    if (p.nicDirty) {
                        p.nicDirty = false;
                        p.flush();
                    }
                    int want = p.blocked ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ;
                    if (p.key.isValid() && p.key.interestOps() != want) p.key.interestOps(want);
                    if (!mayLeave(p) && failure.get() == null && now - p.lastHeard > settings.peerTimeoutMs() * 1_000_000L) {
                        fail("node " + p.node + " (" + str(settings.hosts().get(p.node)) + ") sent nothing for "
                                + settings.peerTimeoutMs() / 1000.0 + " s: it hung or the network failed");
                    }
                }
                if (now - lastBeat > HEARTBEAT_NS) {
                    lastBeat = now;
                    for (Peer p : links) if (!p.dead) p.control(Wire.HEARTBEAT, 0, 0, null);      // every connection
                    if (settings.watchParent()) {
                        java.util.Optional<ProcessHandle> parent = ProcessHandle.current().parent();
                        if (parent.isEmpty() || !parent.get().isAlive()) fail("node " + self + ": the launcher is gone; stopping");
                    }
                }
                if (running && !doneSent && unfinished.get() == 0 && inFlight.get() == 0) {
                    doneSent = true;
                    if (self == 0) nodeDone(0); else peers[0][0].control(Wire.DONE, 0, 0, null);
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
            for (int n = 1; n < nodes; n++) peers[n][0].control(Wire.STOP, 0, 0, null);
            stop = true;
        }
    }

    /** Reads what the connection has and handles every complete frame (the network thread). */
    private void read(Peer p, byte[][] scratch) {
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
                if (len < 1 || len > Wire.MAX_FRAME) throw new Malformed("frame length " + len + " (accepted: 1.." + Wire.MAX_FRAME + ")");
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
    @Override public void localThroughNic(boolean on) { viaNic = on; }

    private boolean mayLeave(Peer p) { return p.bye || closed || (closing && p.node != 0); }

    private void lost(Peer p, String what) {
        p.dead = true;
        p.key.cancel();
        try {
            p.ch.close();
        } catch (IOException ignored) {
            // gone anyway
        }
        if (!mayLeave(p)) fail("node " + p.node + " (" + str(settings.hosts().get(p.node)) + ") " + what + " during the run");
    }

    /** A peer sent something this node refuses: the run stops and its connection is closed. */
    private void malformed(Peer p, Malformed e) {
        p.dead = true;
        fail("node " + self + ": node " + p.node + " sent " + e.getMessage() + "; closed its connection");
        try {
            p.ch.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    private static final class Malformed extends Exception {
        Malformed(String m) { super(m, null, false, false); }
    }

    private void frame(Peer p, byte type, ByteBuffer in, byte[][] scratch) throws Malformed {
        switch (type) {
            case Wire.OS -> serveOneSided(p, in, scratch);
            case Wire.OS_RESP -> p.completeOneSided(in);
            case Wire.RPC -> {
                int id = in.getInt(), handler = in.getInt(), srcWorker = in.getShort() & 0xffff, len = in.getInt();
                if (len < 0 || len > in.remaining()) throw new Malformed("an RPC of " + len + " bytes in a shorter frame");
                if (handler < 0) throw new Malformed("an RPC to unknown handler " + handler);
                if (srcWorker % lanes != p.lane) throw new Malformed("an RPC of its worker " + srcWorker + " on connection " + p.lane);
                Op call = callPool.poll();
                if (call == null) call = new Op();
                call.rpc(self, handler, len);
                in.get(call.data, 0, len);
                call.srcNode = p.node;
                call.srcWorker = srcWorker;
                call.compare = id;              // the wire id of an arrived RPC, echoed in its reply
                if (!hostsReady) {
                    held.add(call);
                    return;
                }
                if (!held.isEmpty()) deliverHeld();
                deliver(call);
            }
            case Wire.RPC_RESP -> p.completeRpc(in);
            case Wire.HEARTBEAT -> { }
            case Wire.DONE -> {
                if (self != 0) throw new Malformed("a DONE message to node " + self);
                nodeDone(p.node);
            }
            case Wire.STOP -> stop = true;
            case Wire.ABORT -> {
                byte[] b = new byte[in.remaining()];
                in.get(b);
                p.bye = true;
                fail(new String(b, StandardCharsets.UTF_8));
            }
            case Wire.BYE -> {
                p.bye = true;
                if (p.lane == 0) mailbox.add(new Msg(type, p.node, 0, 0, null));
            }
            case Wire.CLOCK_REQ -> p.control(Wire.CLOCK_RESP, in.getLong(), now(), null);
            case Wire.CLOCK_RESP -> {
                long a = in.getLong(), b = in.getLong();
                mailbox.add(new Msg(type, p.node, a, b, null));
            }
            case Wire.READY -> {
                byte[] b = new byte[in.remaining()];
                in.get(b);
                mailbox.add(new Msg(type, p.node, 0, 0, b));
            }
            case Wire.GO -> mailbox.add(new Msg(type, p.node, in.getLong(), 0, null));
            case Wire.REPORT -> {
                boolean last = in.get() != 0;
                if (p.report == null) p.report = new ByteArrayOutputStream();
                byte[] b = new byte[in.remaining()];
                in.get(b);
                p.report.writeBytes(b);
                if (last) {
                    mailbox.add(new Msg(type, p.node, 0, 0, p.report.toByteArray()));
                    p.report = null;
                }
            }
            default -> throw new Malformed("a frame of unknown type " + type);
        }
    }

    /** Hands an arrived RPC to its target worker once its handler id is checked against that worker's host. */
    private void deliver(Op call) throws Malformed {
        TcpWorker target = workers[call.srcWorker % threads];
        int handlers = target.host.handlers();
        if (call.handler >= handlers) {
            callPool.add(call);
            throw new Malformed("an RPC to unknown handler " + call.handler + " (node " + self + " has handlers 0.." + (handlers - 1) + ")");
        }
        target.arrive(call);
    }

    /** Checks and delivers the RPCs that arrived before the hosts were installed, in arrival order. */
    private void deliverHeld() {
        Op call;
        while ((call = held.poll()) != null) {
            try {
                deliver(call);
            } catch (Malformed e) {
                held.clear();             // the run stops; nothing more is delivered
                malformed(peers[call.srcNode][call.srcWorker % lanes], e);
                return;
            }
        }
    }

    /** Executes one OS frame on this node's registered memory, in order, and queues its response. */
    private void serveOneSided(Peer p, ByteBuffer in, byte[][] scratch) throws Malformed {
        int count = in.getShort() & 0xffff;
        if (count == 0 || count > Wire.MAX_BATCH) throw new Malformed("a batch of " + count + " ops (accepted: 1.." + Wire.MAX_BATCH + ")");
        RegisteredMemory m = memory[self];
        synchronized (p) {
            ByteBuffer o = p.reserve(7);
            int start = o.position();
            o.putInt(0).put(Wire.OS_RESP).putShort((short) count);
            try {
                for (int i = 0; i < count; i++) {
                    byte verb = in.get();
                    int region = in.getInt();
                    long off = in.getLong();
                    int len = in.getInt();
                    if (verb < Wire.READ || verb > Wire.FAA) throw new Malformed("an op with verb code " + verb);
                    if (verb == Wire.CAS || verb == Wire.FAA) {
                        if (len != 8) throw new Malformed("an atomic of " + len + " bytes");
                        if ((off & 7) != 0) throw new Malformed("an unaligned atomic at offset " + off);
                    }
                    if (len < 0 || len > Wire.MAX_OP_BYTES) throw new Malformed("an op of " + len + " bytes");
                    if (region < 0 || region >= m.regionCount() || off < 0 || off > m.regionSize(region) - len) {
                        throw new Malformed("a " + verbName(verb) + " outside registered memory (region " + region + ", offset " + off
                                + ", " + len + " bytes; node " + self + " has " + m.regionCount() + " regions"
                                + (region >= 0 && region < m.regionCount() ? ", this one " + m.regionSize(region) + " bytes" : "") + ")");
                    }
                    switch (verb) {
                        case Wire.READ -> {
                            byte[] b = scratch[0] = Bytes.ensure(scratch[0], len);
                            m.read(region, off, b, 0, len);
                            VarHandle.acquireFence();
                            p.reserve(len).put(b, 0, len);
                        }
                        case Wire.WRITE -> {
                            if (in.remaining() < len) throw new Malformed("a WRITE of " + len + " bytes in a shorter frame");
                            byte[] b = scratch[0] = Bytes.ensure(scratch[0], len);
                            in.get(b, 0, len);
                            VarHandle.releaseFence();
                            m.write(region, off, b, 0, len);
                        }
                        case Wire.CAS -> {
                            long expect = in.getLong(), update = in.getLong();
                            p.reserve(8).putLong(m.cas(region, off, expect, update));
                        }
                        default -> p.reserve(8).putLong(m.faa(region, off, in.getLong()));
                    }
                }
            } catch (Malformed | RuntimeException e) {
                p.out.position(start);
                throw e;
            }
            ByteBuffer o2 = p.out;
            o2.putInt(start, o2.position() - start - 4);
            p.nicDirty = true;
        }
    }

    private static String verbName(byte v) {
        return switch (v) { case Wire.READ -> "READ"; case Wire.WRITE -> "WRITE"; case Wire.CAS -> "CAS"; default -> "FAA"; };
    }

    private static String str(InetSocketAddress a) { return a.getHostString() + ":" + a.getPort(); }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TcpFailure("interrupted during start-up");
        }
    }

    // ---------------------------------------------------------------- a connection to one peer process

    /**
     * One connection to a peer node (lane 0 of a node also carries the control messages). Its outgoing buffer and
     * pending tables are guarded by its monitor.
     */
    private final class Peer {
        final int node, lane;
        final SocketChannel ch;
        SelectionKey key;
        ByteBuffer in = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer out = ByteBuffer.allocateDirect(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
        /** The socket did not take everything: the network thread finishes the write when it can. */
        volatile boolean blocked;
        volatile boolean nicDirty;
        volatile long lastHeard;
        volatile boolean dead, bye;
        ByteArrayOutputStream report;
        // one-sided batches awaiting their response, in sending order
        Op[] osOps = new Op[256];
        int[] osCounts = new int[64];
        int osHead, osTail, opHead, opTail;
        // RPCs awaiting their reply, by wire id
        Op[] rpc = new Op[64];
        int[] free = new int[64];
        int freeTop;

        Peer(int node, int lane, SocketChannel ch) {
            this.node = node;
            this.lane = lane;
            this.ch = ch;
            for (int i = 0; i < rpc.length; i++) free[freeTop++] = rpc.length - 1 - i;
        }

        /** Room for {@code bytes} more in the outgoing buffer (caller holds the monitor). */
        ByteBuffer reserve(int bytes) {
            if (out.remaining() < bytes) {
                ByteBuffer nb = ByteBuffer.allocateDirect(Math.max(out.capacity() * 2, out.position() + bytes)).order(ByteOrder.LITTLE_ENDIAN);
                out.flip();
                nb.put(out);
                out = nb;
            }
            return out;
        }

        /** Writes what the socket takes now; the rest is left to the network thread. */
        synchronized void flush() {
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
                if (!mayLeave(this)) fail("node " + node + " (" + str(settings.hosts().get(node)) + ") disconnected during the run");
                return;
            }
            boolean rest = out.hasRemaining();
            out.compact();
            if (rest != blocked) {
                blocked = rest;
                if (rest && Thread.currentThread() != nic) selector.wakeup();
            }
        }

        /** Queues a control frame and writes it now. */
        void control(byte type, long a, long b, byte[] data) {
            synchronized (this) {
                if (dead) return;
                int len = 1 + switch (type) {
                    case Wire.CLOCK_REQ, Wire.GO -> 8;
                    case Wire.CLOCK_RESP -> 16;
                    case Wire.REPORT -> 1 + data.length;
                    case Wire.READY, Wire.ABORT -> data.length;
                    default -> 0;
                };
                ByteBuffer o = reserve(4 + len);
                o.putInt(len).put(type);
                switch (type) {
                    case Wire.CLOCK_REQ, Wire.GO -> o.putLong(a);
                    case Wire.CLOCK_RESP -> o.putLong(a).putLong(b);
                    case Wire.REPORT -> o.put((byte) a).put(data);
                    case Wire.READY, Wire.ABORT -> o.put(data);
                    default -> { }
                }
            }
            flush();
        }

        /** Encodes a doorbell batch as one OS frame and remembers its ops for the response. */
        synchronized void sendBatch(Op[] ops, int n) {
            int bytes = 7;
            for (int i = 0; i < n; i++) bytes += 17 + switch (ops[i].verb) {
                case CAS -> 16;
                case FAA -> 8;
                case WRITE -> ops[i].length;
                default -> 0;
            };
            ByteBuffer o = reserve(bytes);
            o.putInt(bytes - 4).put(Wire.OS).putShort((short) n);
            for (int i = 0; i < n; i++) {
                Op op = ops[i];
                byte v = switch (op.verb) {
                    case READ -> Wire.READ;
                    case WRITE -> Wire.WRITE;
                    case CAS -> Wire.CAS;
                    case FAA -> Wire.FAA;
                    default -> throw new IllegalArgumentException("not a one-sided verb in a batch: " + op.verb);
                };
                o.put(v).putInt(op.region).putLong(op.offset).putInt(op.verb == Verb.CAS || op.verb == Verb.FAA ? 8 : op.length);
                switch (op.verb) {
                    case CAS -> o.putLong(op.compare).putLong(op.value);
                    case FAA -> o.putLong(op.value);
                    case WRITE -> o.put(op.data, 0, op.length);
                    default -> { }
                }
                if (opTail - opHead == osOps.length) osOps = grow(osOps, opHead, opTail);
                osOps[opTail++ & (osOps.length - 1)] = op;
            }
            if (osTail - osHead == osCounts.length) osCounts = grow(osCounts, osHead, osTail);
            osCounts[osTail++ & (osCounts.length - 1)] = n;
        }

        private Op[] grow(Op[] a, int head, int tail) {
            Op[] b = new Op[a.length * 2];
            for (int i = head; i < tail; i++) b[i & (b.length - 1)] = a[i & (a.length - 1)];
            return b;
        }

        private int[] grow(int[] a, int head, int tail) {
            int[] b = new int[a.length * 2];
            for (int i = head; i < tail; i++) b[i & (b.length - 1)] = a[i & (a.length - 1)];
            return b;
        }

        /** The response to the oldest OS frame: results into its ops, then completions. */
        void completeOneSided(ByteBuffer in) throws Malformed {
            int count = in.getShort() & 0xffff;
            int start;
            synchronized (this) {
                if (osHead == osTail) throw new Malformed("a response to no one-sided batch");
                int n = osCounts[osHead++ & (osCounts.length - 1)];
                if (n != count) throw new Malformed("a response of " + count + " ops to a batch of " + n);
                start = opHead;
                opHead += n;
                for (int i = start; i < start + n; i++) {
                    Op op = osOps[i & (osOps.length - 1)];
                    osOps[i & (osOps.length - 1)] = null;
                    scratchBatch[i - start] = op;
                }
            }
            for (int i = 0; i < count; i++) {
                Op op = scratchBatch[i];
                switch (op.verb) {
                    case READ -> in.get(op.data, 0, op.length);
                    case CAS, FAA -> op.result = in.getLong();
                    default -> { }
                }
                complete(op);
            }
        }

        private final Op[] scratchBatch = new Op[Wire.MAX_BATCH];

        synchronized void sendRpc(Op op) {
            if (freeTop == 0) {
                int old = rpc.length;
                rpc = java.util.Arrays.copyOf(rpc, old * 2);
                free = java.util.Arrays.copyOf(free, old * 2);
                for (int i = old * 2 - 1; i >= old; i--) free[freeTop++] = i;
            }
            int id = free[--freeTop];
            rpc[id] = op;
            ByteBuffer o = reserve(4 + 15 + op.length);
            o.putInt(15 + op.length).put(Wire.RPC).putInt(id).putInt(op.handler).putShort((short) op.srcWorker).putInt(op.length)
                    .put(op.data, 0, op.length);
        }

        void completeRpc(ByteBuffer in) throws Malformed {
            int id = in.getInt(), len = in.getInt();
            if (len < 0 || len > in.remaining()) throw new Malformed("an RPC reply of " + len + " bytes in a shorter frame");
            Op op;
            synchronized (this) {
                if (id < 0 || id >= rpc.length || rpc[id] == null) throw new Malformed("a reply to unknown RPC " + id);
                op = rpc[id];
                rpc[id] = null;
                free[freeTop++] = id;
            }
            op.reply = Bytes.ensure(op.reply, len);
            in.get(op.reply, 0, len);
            op.replyLength = len;
            complete(op);
        }

        synchronized void sendReply(Op call) {
            ByteBuffer o = reserve(4 + 9 + call.replyLength);
            o.putInt(9 + call.replyLength).put(Wire.RPC_RESP).putInt((int) call.compare).putInt(call.replyLength)
                    .put(call.reply, 0, call.replyLength);
        }
    }

    /**
     * A remote op finished: signaled ones go to their worker's event loop, unsignaled ones are just done (a passive
     * RPC too: its target replies on the wire anyway, which costs a frame but tells exactly when its handler ran).
     */
    private void complete(Op op) {
        if (op.signaled) {
            workers[op.srcWorker].finish(op);
        } else {
            op.inFlight = false;
            inFlight.decrementAndGet();
        }
    }

    // ---------------------------------------------------------------- workers

    /** Another node's worker as seen from here: only its clock (the cluster clock) is usable. */
    private final class RemoteView implements Endpoint {
        final int node, worker;
        final Counters counters = new Counters();

        RemoteView(int node, int worker) { this.node = node; this.worker = worker; }

        @Override public int node() { return node; }
        @Override public int worker() { return worker; }
        @Override public long now() { return TcpFabric.this.now(); }
        @Override public Counters counters() { return counters; }
        @Override public long busyNanos() { return -1; }
        @Override public CostProfile profile() { return cost; }
        @Override public void charge(long ns) {}
        @Override public void compute(long ns) { throw remote(); }
        @Override public void post(Op[] ops, int n) { throw remote(); }
        @Override public void post(Op op) { throw remote(); }
        @Override public void reply(Op call) { throw remote(); }
        @Override public void timer(Op op, long time) { throw remote(); }

        private IllegalStateException remote() {
            return new IllegalStateException("node " + node + " runs in another process; this is node " + self);
        }
    }

    private final class TcpWorker extends ThreadWorker {
        final ConcurrentLinkedQueue<Op> calls = new ConcurrentLinkedQueue<>(), finished = new ConcurrentLinkedQueue<>();
        final boolean[] dirty = new boolean[nodes];
        final Op[] one = new Op[1];

        /** The lane of this worker's connections. */
        final int lane;

        TcpWorker(int worker) {
            super(self, worker, cost, SPIN_NS, PARK_NS);
            lane = worker % lanes;
        }

        void arrive(Op call) {
            calls.add(call);
            wake();
        }

        void finish(Op op) {
            finished.add(op);
            wake();
        }

        @Override protected boolean nothingQueued() { return calls.isEmpty() && finished.isEmpty(); }

        void loop() {
            try {
                while (!stop) {
                    long t0 = System.nanoTime();
                    boolean worked = false;
                    Op op;
                    while ((op = calls.poll()) != null) {
                        worked = true;
                        host.onRpc(op);
                    }
                    while ((op = finished.poll()) != null) {
                        worked = true;
                        op.inFlight = false;
                        inFlight.decrementAndGet();
                        host.onComplete(op);
                    }
                    long now = t0 - base;
                    if (fireTimers(now)) worked = true;
                    for (int i = 0; i < RESUMES_PER_PASS && host.runOne(); i++) worked = true;
                    flushDirty();
                    if (justFinished()) unfinished.decrementAndGet();
                    endPass(t0, now, worked);
                }
                flushDirty();
            } catch (Throwable t) {
                fail("node " + self + " worker " + worker + " failed: " + t);
            }
        }

        private void flushDirty() {
            for (int n = 0; n < nodes; n++) {
                if (dirty[n]) {
                    dirty[n] = false;
                    Peer p = peers[n][lane];
                    if (!p.blocked) p.flush();
                }
            }
        }

        @Override public long now() { return System.nanoTime() - base; }

        @Override
        public void post(Op op) {
            if (op.verb == Verb.RPC) {
                op.posted(self, worker);
                if (op.node == self && !viaNic) {
                    counters.local++;
                    host.onRpc(op);
                    return;
                }
                if (op.node == self) {
                    // local_access: network: a message to the own node, served by its worker at its next poll
                    counters.count(op);
                    inFlight.incrementAndGet();
                    workers[worker].arrive(op);
                    return;
                }
                counters.count(op);
                inFlight.incrementAndGet();
                peers[op.node][lane].sendRpc(op);
                dirty[op.node] = true;
                return;
            }
            one[0] = op;
            post(one, 1);
            one[0] = null;
        }

        @Override
        public void post(Op[] ops, int n) {
            if (n == 0) return;
            int dst = ops[0].node;
            if (dst == self) {
                RegisteredMemory m = memory[self];
                for (int i = 0; i < n; i++) {
                    Op op = ops[i];
                    if (op.verb == Verb.RPC) { post(op); continue; }
                    op.srcNode = self;
                    op.srcWorker = worker;
                    if (viaNic) counters.count(op); else counters.local++;
                    MemoryOps.execute(m, op);
                    op.inFlight = false;
                    if (op.signaled) host.onComplete(op);
                }
                return;
            }
            for (int i = 0; i < n; i++) {
                Op op = ops[i];
                if (op.verb == Verb.RPC) throw new IllegalArgumentException("an RPC inside a one-sided doorbell batch");
                op.posted(self, worker);
                counters.count(op);
            }
            counters.doorbells++;
            inFlight.addAndGet(n);
            peers[dst][lane].sendBatch(ops, n);
            dirty[dst] = true;
        }

        @Override
        public void reply(Op call) {
            if (call.srcNode == self && viaNic) {
                // an RPC to the own node that came as a message: its reply too (balancing the send's count)
                if (call.signaled) {
                    workers[call.srcWorker].finish(call);
                } else {
                    call.inFlight = false;
                    inFlight.decrementAndGet();
                }
                return;
            }
            if (call.srcNode == self) {
                if (!call.signaled) {
                    call.inFlight = false;           // passive RPC on this node: its handler has run, nobody is told
                } else if (call.srcWorker == worker) {
                    call.inFlight = false;
                    host.onComplete(call);
                } else {
                    inFlight.incrementAndGet();       // balanced when that worker takes it
                    workers[call.srcWorker].finish(call);
                }
                return;
            }
            // back on the connection the call came in on: a deferred reply (a lock handed over by another worker's
            // handler) may be sent by a worker of another lane, which writes that connection at once
            Peer p = peers[call.srcNode][call.srcWorker % lanes];
            p.sendReply(call);
            if (p.lane == lane) dirty[call.srcNode] = true;
            else if (!p.blocked) p.flush();
            callPool.add(call);
        }

    }
}
