package org.rccj.fabrics.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.nio.ByteOrder;
import org.rccj.fabrics.cluster.ClusterNode;
import org.rccj.fabrics.cluster.RemoteView;
import org.rccj.fabrics.cluster.ClusterSettings;
import org.rccj.fabrics.cluster.DataPlane;
import org.rccj.fabrics.threads.ThreadWorker;
import org.rccj.primitives.ChunkedMemory;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.MemoryStorage;
import org.rccj.primitives.Op;
import org.rccj.primitives.ProcessGroup;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;
import org.rccj.ucx.Ucx;
import org.rccj.ucx.UcxContext;
import org.rccj.ucx.UcxEndpoint;
import org.rccj.ucx.UcxRemoteKey;
import org.rccj.ucx.UcxWorker;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * The cluster's nodes talking through UCX (design.md, fabrics; issue 20). Each node has its own UCP context and
 * registered memory UCX allocated ({@link MemoryStorage} over {@code ucp_mem_map(ALLOCATE)}); each worker thread
 * its own UCP worker with an endpoint to every worker of every other node. One-sided READ/WRITE/CAS/FAA are
 * {@code ucp_get/put/atomic_op_nbx} on the target's memory (a doorbell batch: the ops posted before the next
 * progress; an unsignaled op is not awaited by its coroutine, the fabric only notes when it finished); an RPC is
 * an active message to the target worker of the same index, served at that worker's poll point, answered by a
 * reply message from whichever worker replies. Every worker progresses its UCP worker at each loop pass and keeps
 * doing so while idle (only brief parks), since on TCP, and on shared memory without UCX-allocated memory, the
 * target's progress is what completes one-sided ops.
 *
 * <p>Two forms, one data plane. {@link #join}: this process is one node of a cluster on the control plane
 * ({@link ClusterNode}: membership, secret, heartbeats, abort, barrier, gather); the nodes exchange their workers'
 * addresses and their memory keys as the per-node blob, connect, and wire every endpoint up before the start barrier.
 * {@link #inProcess}: every node in this process, each with its own context, so traffic between nodes still goes
 * through UCX's shared-memory or TCP transports (what the test matrix and single-host experiments use).
 */
public sealed class UcxFabric implements Fabric permits UcxFabric.Node {
    static final int AM_CALL = 1, AM_REPLY = 2;
    /** Call header: source node, source worker (u16 each), handler, call id (i32 each). */
    static final int CALL_HEADER = 12, REPLY_HEADER = 4;
    private static final long SPIN_NS = 50_000, PARK_NS = 200_000;
    private static final int RESUMES_PER_PASS = 16;
    private static final int CHUNK_BITS = ChunkedMemory.CHUNK_SHIFT;
    private static final long CHUNK_MASK = (1L << CHUNK_BITS) - 1;

    /** The node this process hosts, or -1 when it hosts every node ({@link #inProcess}). */
    private final int self;
    /** The control plane ({@link #join}), or null in one process. */
    private final ClusterNode cluster;
    private final long base;
    private volatile boolean running;
    private final Endpoint[][] views;
    private final int nodes, threads;
    private final CostProfile cost;
    private final Map<String, String> ucxConfig;
    private final UcxContext[] contexts;
    private final Arena memoryArena = Arena.ofShared();
    private final RegisteredMemory[] memory;
    /** Per hosted node: registered chunks by region then chunk (address, packed key). */
    private final List<List<Blob.Chunk>>[] chunks;
    private final Worker[][] workers;
    private final AtomicInteger unfinished = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final ConcurrentLinkedQueue<Op> callPool = new ConcurrentLinkedQueue<>();
    private volatile boolean stop;
    private boolean connected, closed, oneSidedAtomics;
    /** ucx.loopback_atomics: always (not only where a peer's one-sided ops run on RDMA hardware). */
    private boolean loopbackAlways;
    /** CPU atomics the loopback route sent through UCX on the own endpoint (summary.json's ucx.loopback_atomics). */
    private final java.util.concurrent.atomic.AtomicLong loopbackAtomics = new java.util.concurrent.atomic.AtomicLong();
    /** The worker whose thread is running (the loopback route posts on its UCX worker); null off the workers' threads. */
    private static final ThreadLocal<Worker> CURRENT = new ThreadLocal<>();
    /** What ucp_ep_print_info said for each peer node, seen from node 0's worker 0 (for the results). */
    private final Map<Integer, String> lanes = new LinkedHashMap<>();

    /**
     * Every node in this process: {@code nodes} x {@code threads} workers; {@code ucxConfig} are UCX settings without
     * the UCX_ prefix (e.g. TLS=posix,self), on top of UCX's own environment variables.
     */
    public static UcxFabric inProcess(int nodes, int threads, CostProfile cost, Map<String, String> ucxConfig) {
        return new UcxFabric(nodes, threads, cost, ucxConfig, null);
    }

    /** This process's node of the cluster {@code s} describes: joins the control plane (blocks until all joined). */
    public static UcxFabric join(int threads, CostProfile cost, Map<String, String> ucxConfig, ClusterSettings s) {
        return new Node(s.nodes(), threads, cost, ucxConfig, s);
    }

    /** The per-process form: the framework meets the other nodes and gathers their reports through it. */
    static final class Node extends UcxFabric implements ProcessGroup {
        Node(int nodes, int threads, CostProfile cost, Map<String, String> ucxConfig, ClusterSettings s) {
            super(nodes, threads, cost, ucxConfig, s);
        }

        @Override public int self() { return hosted(); }
        @Override public long startBarrier(byte[] descriptor) { return barrier(descriptor); }
        @Override public byte[][] gather(byte[] mine) { return gatherAtNodeZero(mine); }
    }

    @SuppressWarnings("unchecked")
    UcxFabric(int nodes, int threads, CostProfile cost, Map<String, String> ucxConfig, ClusterSettings cs) {
        this.nodes = nodes;
        this.threads = threads;
        this.cost = cost;
        this.ucxConfig = Map.copyOf(ucxConfig);
        this.self = cs == null ? -1 : cs.self();
        Ucx ucx = Ucx.load();
        contexts = new UcxContext[nodes];
        memory = new RegisteredMemory[nodes];
        chunks = new List[nodes];
        workers = new Worker[nodes][];
        views = new Endpoint[nodes][threads];
        for (int n = 0; n < nodes; n++) {
            if (!hosts(n)) {
                memory[n] = RegisteredMemory.shadow(n);
                for (int t = 0; t < threads; t++) views[n][t] = new RemoteView(n, t, self, this::clusterNow, cost);
                continue;
            }
            UcxContext ctx = contexts[n] = ucx.newContext(this.ucxConfig);
            List<List<Blob.Chunk>> mine = chunks[n] = new ArrayList<>();
            memory[n] = new ChunkedMemory(n, (node, region, chunk, bytes) -> {
                var m = ctx.map(bytes, memoryArena);
                synchronized (mine) {
                    while (mine.size() <= region) mine.add(new ArrayList<>());
                    List<Blob.Chunk> cs2 = mine.get(region);
                    while (cs2.size() <= chunk) cs2.add(null);
                    cs2.set(chunk, new Blob.Chunk(m.address(), m.rkey()));
                }
                return m.segment().asByteBuffer().order(ByteOrder.nativeOrder());
            }, false);
            workers[n] = new Worker[threads];
            for (int t = 0; t < threads; t++) views[n][t] = workers[n][t] = new Worker(n, t, ctx.newWorker());
        }
        if (cs == null) {
            cluster = null;
            base = 0;
        } else {
            cluster = ClusterNode.join(cs, 1, new DataPlane() {
                @Override public boolean finished() { return running && unfinished.get() == 0 && inFlight.get() == 0; }
                // a worker asleep on its event fd sees the stop within PARK_NS (no ucp_worker_signal here: the
                // control plane may stop a run whose workers were already destroyed)
                @Override public void stopping() { for (Worker w : workers[self]) if (w.thread != null) LockSupport.unpark(w.thread); }
            });
            base = cluster.base();
        }
    }

    @Override public String name() { return "ucx"; }
    @Override public int nodes() { return nodes; }
    @Override public int threads() { return threads; }
    @Override public RegisteredMemory memory(int node) { return memory[node]; }
    @Override public Endpoint endpoint(int node, int worker) { return views[node][worker]; }
    @Override public boolean hosts(int node) { return self < 0 || node == self; }
    @Override public long origin() { return cluster == null ? Fabric.super.origin() : 0; }

    // ---------------------------------------------------------------- the control plane's (Node's ProcessGroup)

    int hosted() { return self; }

    /** The cluster clock, ns (node 0's, zero at its start-up); in one process, System.nanoTime(). */
    long clusterNow() { return System.nanoTime() - base; }

    /**
     * Exchanges this node's blob (workers' addresses, memory keys) with every node, connects and wires up every
     * endpoint (progressing this node's workers, which peers' wire-up needs too), then meets the others at the
     * control plane's barrier, still progressing until it returns.
     */
    long barrier(byte[] descriptor) {
        byte[][] raw = cluster.exchange(blob(self));
        Blob[] blobs = new Blob[nodes];
        for (int n = 0; n < nodes; n++) blobs[n] = Blob.parse(raw[n], threads);
        connect(blobs);
        long[] start = {Long.MIN_VALUE};
        RuntimeException[] failed = {null};
        Thread barrier = new Thread(() -> {
            try {
                start[0] = cluster.startBarrier(descriptor);
            } catch (RuntimeException e) {
                failed[0] = e;
            }
        }, "rcc-ucx-barrier");
        barrier.start();
        while (barrier.isAlive()) for (Worker w : workers[self]) w.ucx.progress();
        try {
            barrier.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failed[0] != null) throw failed[0];
        return start[0];
    }

    byte[][] gatherAtNodeZero(byte[] mine) { return cluster.gather(mine); }

    /** Remembered for {@link #connect}: whether one-sided atomics may race handlers' CPU atomics in this run. */
    @Override public void oneSidedAtomics(boolean used) { oneSidedAtomics = used; }

    /** local_access: network: own-node RPCs are messages served at the worker's poll (see ThreadWorker#viaNic). */
    @Override
    public void localThroughNic(boolean on) {
        for (Worker[] ws : workers) if (ws != null) for (Worker w : ws) w.viaNic = on;
    }

    /** The UCX settings this fabric was made with. */
    public Map<String, String> ucxConfig() { return ucxConfig; }

    /** ucp_ep_print_info of node 0's worker 0 to each other node (after {@link #run}). */
    public Map<Integer, String> lanes() { return lanes; }

    private byte[] blob(int node) {
        byte[][] addresses = new byte[threads][];
        for (int t = 0; t < threads; t++) addresses[t] = workers[node][t].ucx.address();
        synchronized (chunks[node]) {
            return new Blob(addresses, chunks[node]).bytes();
        }
    }

    /** Connects every hosted worker to every worker of the other nodes, unpacks their keys and wires up (once). */
    private void connect(Blob[] blobs) {
        if (connected) return;
        connected = true;
        for (int n = 0; n < nodes; n++) if (hosts(n)) for (Worker w : workers[n]) w.connect(blobs);
        wireUp();
        int from = self < 0 ? 0 : self;
        for (int m = 0; m < nodes; m++) if (m != from) lanes.put(m, workers[from][0].eps[m][0].info());
        // NIC atomics on RDMA are not atomic with CPU atomics (DrTM, DrTM+H): where this run posts one-sided atomics and
        // a peer's one-sided ops run on RDMA hardware, every CPU atomic on registered memory (handlers, own-node ops)
        // goes through UCX on the worker's own endpoint, so the NIC performs it too (loopback)
        boolean hardware = lanes.values().stream().anyMatch(i -> Lanes.parse(i).oneSided().equals(Lanes.HARDWARE));
        if (oneSidedAtomics && (hardware || loopbackAlways)) {
            for (int n = 0; n < nodes; n++) if (hosts(n)) memory[n].cpuAtomics(loopbackRoute);
        }
    }

    /** ucx.loopback_atomics: {@code always} routes CPU atomics through the own endpoint on every transport. */
    public void loopbackAlways(boolean on) { loopbackAlways = on; }

    /** CPU atomics that went through UCX on the own endpoint so far. */
    public long loopbackAtomicCount() { return loopbackAtomics.get(); }

    /** CPU atomics on a hosted node's memory, made on a worker's thread: through UCX on its own endpoint. */
    private final RegisteredMemory.CpuAtomics loopbackRoute = new RegisteredMemory.CpuAtomics() {
        @Override
        public long cas(RegisteredMemory m, int region, long off, long expect, long update) {
            Worker w = CURRENT.get();
            if (w == null || w.node() != m.node()) return m.casDirect(region, off, expect, update);   // loading, checking
            return w.loopback(true, region, off, expect, update);
        }

        @Override
        public long faa(RegisteredMemory m, int region, long off, long delta) {
            Worker w = CURRENT.get();
            if (w == null || w.node() != m.node()) return m.faaDirect(region, off, delta);
            return w.loopback(false, region, off, 0, delta);
        }
    };

    /**
     * Completes every endpoint's connection before the run (a flush on each, all workers progressing): UCX wires an
     * endpoint up lazily, and over TCP that takes milliseconds that would otherwise fall into the measured run.
     */
    private void wireUp() {
        List<long[]> open = new ArrayList<>();   // {node, worker, request}
        for (int n = 0; n < nodes; n++) if (hosts(n)) for (int t = 0; t < threads; t++) {
            for (UcxEndpoint[] es : workers[n][t].eps) if (es != null) for (UcxEndpoint e : es) open.add(new long[] {n, t, e.flushRequest()});
            open.add(new long[] {n, t, workers[n][t].selfEp.flushRequest()});
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (!open.isEmpty()) {
            for (Worker[] ws : workers) if (ws != null) for (Worker w : ws) w.ucx.progress();
            open.removeIf(o -> workers[(int) o[0]][(int) o[1]].ucx.done("ucp_ep_flush_nbx (connecting)", o[2]));
            if (System.nanoTime() > deadline) throw new IllegalStateException("ucx: endpoints did not connect within 60 s");
        }
    }

    @Override
    public void run(WorkerHost[][] hosts) {
        if (cluster == null) {
            Blob[] blobs = new Blob[nodes];
            for (int n = 0; n < nodes; n++) blobs[n] = Blob.parse(blob(n), threads);
            connect(blobs);
        } else {
            cluster.checkFailure();
            // a caller that never met the others (the primitive benchmarks) connects here, all nodes alike
            if (!connected) barrier(new byte[0]);
        }
        int hosted = self < 0 ? nodes : 1;
        unfinished.set(hosted * threads);
        ThreadWorker[] ws = new ThreadWorker[hosted * threads];
        WorkerHost[] hs = new WorkerHost[hosted * threads];
        for (int n = 0, k = 0; n < nodes; n++) {
            if (!hosts(n)) continue;
            for (int t = 0; t < threads; t++, k++) {
                ws[k] = workers[n][t];
                hs[k] = hosts[n][t];
            }
        }
        ThreadWorker.runAll(ws, hs, "rcc-ucx-worker", () -> running = true, () -> {
            stop = true;
            throw new IllegalStateException("interrupted while running the ucx fabric");
        });
        running = false;
        if (cluster != null) cluster.checkFailure();
        Throwable f = failure.get();
        if (f instanceof RuntimeException re) throw re;
        if (f instanceof Error er) throw er;
        if (f != null) throw new IllegalStateException(f);
    }

    private boolean allDone() {
        if (cluster != null) return stop || cluster.stopped();
        return stop || (unfinished.get() == 0 && inFlight.get() == 0);
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        stop = true;
        if (cluster != null) cluster.close();
        for (Worker[] ws : workers) if (ws != null) for (Worker w : ws) w.closeEndpoints();
        for (Worker[] ws : workers) if (ws != null) for (Worker w : ws) w.ucx.close();
        memoryArena.close();
        for (UcxContext c : contexts) if (c != null) c.close();
    }

    /** An op (or a message) handed to UCX and not finished yet, with the native buffer it uses. */
    private static final class Slot {
        static final byte ONE_SIDED = 0, CALL = 1, REPLY = 2, FLUSH = 3;
        byte kind;
        Op op;
        long request;
        MemorySegment buf;
        /** FLUSH: the WRITE slots of its batch, finished when the flush is (remote completion). */
        final ArrayList<Slot> writes = new ArrayList<>();
    }

    private final class Worker extends ThreadWorker {
        final UcxWorker ucx;
        final Arena arena = Arena.ofShared();
        /** Endpoints to every worker of every other node ({@code [node][worker]}, null for this node). */
        UcxEndpoint[][] eps;
        /**
         * Keys and addresses of every other node's chunks, unpacked on {@code eps[node][worker % threads]}, and of the
         * own node's on {@link #selfEp} (the loopback route's).
         */
        UcxRemoteKey[][][] keys;
        long[][][] bases;
        /** An endpoint to this worker itself: the loopback route's CPU atomics go through UCX (the NIC on RDMA). */
        UcxEndpoint selfEp;
        MemorySegment loopbackIo;
        final ArrayList<Slot> pending = new ArrayList<>();
        final ArrayDeque<Slot> free = new ArrayDeque<>();
        /** Calls this worker sent and awaits replies for, by call id. */
        Op[] calls = new Op[64];
        final ArrayDeque<Integer> freeIds = new ArrayDeque<>();
        int nextId;
        /** RPCs and replies that arrived during progress, served after it returns (the poll point). */
        final ArrayDeque<Op> arrived = new ArrayDeque<>(), replied = new ArrayDeque<>();
        /** Replies other workers of this node hand over (deferred replies). */
        final ConcurrentLinkedQueue<Op> handedOver = new ConcurrentLinkedQueue<>();

        Worker(int node, int worker, UcxWorker ucx) {
            super(node, worker, cost, SPIN_NS, PARK_NS);
            this.ucx = ucx;
            ucx.setAmHandler(AM_CALL, (data, from) -> arrived.add(readCall(data)));
            ucx.setAmHandler(AM_REPLY, (data, from) -> replied.add(readReply(data)));
        }

        void connect(Blob[] blobs) {
            eps = new UcxEndpoint[nodes][];
            keys = new UcxRemoteKey[nodes][][];
            bases = new long[nodes][][];
            for (int m = 0; m < nodes; m++) {
                UcxEndpoint oneSided;
                if (m == node) {
                    oneSided = selfEp = ucx.connect(blobs[m].addresses()[worker]);
                    loopbackIo = arena.allocate(16, 8);
                } else {
                    eps[m] = new UcxEndpoint[threads];
                    for (int u = 0; u < threads; u++) eps[m][u] = ucx.connect(blobs[m].addresses()[u]);
                    oneSided = eps[m][worker % threads];
                }
                List<List<Blob.Chunk>> cs = blobs[m].chunks();
                keys[m] = new UcxRemoteKey[cs.size()][];
                bases[m] = new long[cs.size()][];
                for (int r = 0; r < cs.size(); r++) {
                    List<Blob.Chunk> rc = cs.get(r);
                    keys[m][r] = new UcxRemoteKey[rc.size()];
                    bases[m][r] = new long[rc.size()];
                    for (int c = 0; c < rc.size(); c++) {
                        keys[m][r][c] = oneSided.unpack(rc.get(c).rkey());
                        bases[m][r][c] = rc.get(c).address();
                    }
                }
            }
        }

        /** A CAS ({@code cas}) or FAA on this node's memory through UCX on the own endpoint; waits for it (the core does). */
        long loopback(boolean cas, int region, long off, long expect, long value) {
            int chunk = (int) (off >>> CHUNK_BITS);
            long addr = bases[node][region][chunk] + (off & CHUNK_MASK);
            UcxRemoteKey key = keys[node][region][chunk];
            long req = cas ? selfEp.compareSwap(addr, key, expect, value, loopbackIo) : selfEp.fetchAdd(addr, key, value, loopbackIo);
            ucx.await(cas ? "ucp_atomic_op_nbx (loopback CAS)" : "ucp_atomic_op_nbx (loopback FAA)", req);
            loopbackAtomics.incrementAndGet();
            return loopbackIo.get(JAVA_LONG, 8);
        }

        void closeEndpoints() {
            if (eps == null) return;
            // peers may be gone (or stopped progressing): the endpoints are released with the worker, not flushed
            for (UcxRemoteKey[][] k : keys) if (k != null) for (UcxRemoteKey[] kr : k) for (UcxRemoteKey key : kr) key.close();
            eps = null;
        }

        private Op readCall(MemorySegment d) {
            int len = (int) d.byteSize() - CALL_HEADER;
            Op call = callPool.poll();
            if (call == null) call = new Op();
            call.rpc(node, d.get(JAVA_INT_UNALIGNED, 4), len);
            call.srcNode = d.get(JAVA_SHORT_UNALIGNED, 0) & 0xffff;
            call.srcWorker = d.get(JAVA_SHORT_UNALIGNED, 2) & 0xffff;
            call.compare = d.get(JAVA_INT_UNALIGNED, 8);
            MemorySegment.copy(d, JAVA_BYTE, CALL_HEADER, call.data, 0, len);
            return call;
        }

        private Op readReply(MemorySegment d) {
            int id = d.get(JAVA_INT_UNALIGNED, 0), len = (int) d.byteSize() - REPLY_HEADER;
            Op op = calls[id];
            calls[id] = null;
            freeIds.push(id);
            byte[] r = op.replyBuffer(len);
            MemorySegment.copy(d, JAVA_BYTE, REPLY_HEADER, r, 0, len);
            return op;
        }

        @Override protected boolean nothingQueued() { return handedOver.isEmpty() && arrived.isEmpty(); }

        @Override protected void arriveHere(Op call) { arrived.add(call); }

        // an idle worker sleeps on its UCX event fd: a message, a remote op UCX must serve (emulated RMA over
        // TCP) or a peer worker's signal (a handed-over reply) wakes it at once
        @Override protected void park(long ns) { ucx.sleep(ns); }

        @Override protected void unpark() { ucx.signal(); }

        @Override
        protected void loop() {
            CURRENT.set(this);
            try {
                while (!allDone()) {
                    long t0 = System.nanoTime();
                    boolean worked = ucx.progress() > 0;
                    Op op;
                    while ((op = arrived.poll()) != null) {
                        worked = true;
                        if (op.handler >= host.handlers()) throw new IllegalStateException("node " + node + " worker "
                                + worker + ": an RPC to unknown handler " + op.handler + " from node " + op.srcNode);
                        host.onRpc(op);
                    }
                    while ((op = replied.poll()) != null) {
                        worked = true;
                        complete(op);
                    }
                    while ((op = handedOver.poll()) != null) {
                        worked = true;
                        complete(op);
                    }
                    if (reap()) worked = true;
                    if (fireTimers(t0)) worked = true;
                    for (int i = 0; i < RESUMES_PER_PASS && host.runOne(); i++) worked = true;
                    if (justFinished()) unfinished.decrementAndGet();
                    endPass(t0, t0, worked);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                stop = true;
                if (cluster != null) cluster.fail("node " + node + " worker " + worker + " failed: " + t);
            }
        }

        private void complete(Op op) {
            op.inFlight = false;
            inFlight.decrementAndGet();
            host.onComplete(op);
        }

        /** Finishes the slots whose UCX requests are done; true if any. */
        private boolean reap() {
            boolean any = false;
            for (int i = pending.size() - 1; i >= 0; i--) {
                Slot s = pending.get(i);
                if (!ucx.done("op", s.request)) continue;
                pending.set(i, pending.getLast());
                pending.removeLast();
                finish(s);
                any = true;
            }
            return any;
        }

        private void finish(Slot s) {
            if (s.kind == Slot.FLUSH) {
                for (Slot w : s.writes) finish(w);
                s.writes.clear();
            } else if (s.kind == Slot.ONE_SIDED) {
                Op op = s.op;
                switch (op.verb) {
                    case READ -> MemorySegment.copy(s.buf, JAVA_BYTE, 0, op.data, 0, op.length);
                    case CAS, FAA -> op.result = s.buf.get(JAVA_LONG, 8);
                    default -> { }
                }
                if (op.signaled) {
                    complete(op);
                } else {
                    op.inFlight = false;
                    inFlight.decrementAndGet();
                }
            }
            s.op = null;
            free.push(s);
        }

        private Slot slot(byte kind, Op op, long bytes) {
            Slot s = free.isEmpty() ? new Slot() : free.pop();
            s.kind = kind;
            s.op = op;
            if (s.buf == null || s.buf.byteSize() < bytes) s.buf = arena.allocate(Math.max(64, Long.highestOneBit(bytes - 1) << 1), 8);
            return s;
        }

        private void track(Slot s, long request) {
            s.request = request;
            if (request == 0) finish(s); else pending.add(s);
        }

        @Override public long now() { return clusterNow(); }
        // passive RPCs would need the sender to learn from a later reply that the handler ran; not done yet
        @Override public boolean passiveRpc() { return false; }

        @Override
        public void post(Op op) {
            if (op.verb != Verb.RPC) {
                postAlone(op);
                return;
            }
            if (!rpcLeaves(op)) return;
            inFlight.incrementAndGet();
            int id = freeIds.isEmpty() ? nextId++ : freeIds.pop();
            if (id >= calls.length) calls = Arrays.copyOf(calls, calls.length * 2);
            calls[id] = op;
            Slot s = slot(Slot.CALL, op, CALL_HEADER + op.length);
            MemorySegment b = s.buf;          // the slot's reused buffer; the send names how many bytes
            b.set(JAVA_SHORT_UNALIGNED, 0, (short) node);
            b.set(JAVA_SHORT_UNALIGNED, 2, (short) worker);
            b.set(JAVA_INT_UNALIGNED, 4, op.handler);
            b.set(JAVA_INT_UNALIGNED, 8, id);
            MemorySegment.copy(op.data, 0, b, JAVA_BYTE, CALL_HEADER, op.length);
            track(s, eps[op.node][worker % threads].send(AM_CALL, b, CALL_HEADER + op.length, false));   // replies go to eps[src] by the header
        }

        @Override
        public void post(Op[] ops, int n) {
            if (n == 0) return;
            int dst = ops[0].node;
            if (dst == node) {
                executeLocally(memory[node], ops, n);
                return;
            }
            UcxEndpoint ep = eps[dst][worker % threads];
            boolean unsignaledBefore = false;
            Slot flush = null;
            counters.doorbells++;
            for (int i = 0; i < n; i++) {
                Op op = ops[i];
                if (op.verb == Verb.RPC) throw new IllegalArgumentException("an RPC inside a one-sided doorbell batch");
                op.posted(node, worker);
                counters.count(op);
                inFlight.incrementAndGet();
                // the batch executes in posting order: an op after unsignaled ones (update, then unlock) is fenced
                if (unsignaledBefore) ucx.fence();
                if (!op.signaled) unsignaledBefore = true;
                int chunk = (int) (op.offset >>> CHUNK_BITS);
                if ((op.offset + Math.max(op.length, 8) - 1) >>> CHUNK_BITS != chunk)
                    throw new IllegalArgumentException("a " + op.verb + " across a 1 GiB chunk boundary of region " + op.region);
                long addr = bases[dst][op.region][chunk] + (op.offset & CHUNK_MASK);
                UcxRemoteKey key = keys[dst][op.region][chunk];
                Slot s = slot(Slot.ONE_SIDED, op, Math.max(16, op.length));
                long req = switch (op.verb) {
                    case READ -> ep.get(s.buf, op.length, addr, key);
                    case WRITE -> {
                        MemorySegment.copy(op.data, 0, s.buf, JAVA_BYTE, 0, op.length);
                        // done when at the target, as an RDMA WRITE's completion says: the batch's flush finishes it
                        ucx.release(ep.put(s.buf, op.length, addr, key));
                        if (flush == null) flush = slot(Slot.FLUSH, null, 0);
                        flush.writes.add(s);
                        yield -1;
                    }
                    case CAS -> ep.compareSwap(addr, key, op.compare, op.value, s.buf);
                    case FAA -> ep.fetchAdd(addr, key, op.value, s.buf);
                    default -> throw new IllegalArgumentException("not a one-sided verb: " + op.verb);
                };
                if (req != -1) track(s, req);
            }
            if (flush != null) track(flush, ep.flushRequest());
        }

        @Override
        public void reply(Op call) {
            if (call.srcNode == node) {
                if (!call.signaled) {
                    call.inFlight = false;
                } else if (call.srcWorker == worker) {
                    call.inFlight = false;
                    host.onComplete(call);
                } else {
                    inFlight.incrementAndGet();       // balanced when that worker takes it
                    Worker w = workers[node][call.srcWorker];
                    w.handedOver.add(call);
                    w.wake();
                }
                return;
            }
            Slot s = slot(Slot.REPLY, null, REPLY_HEADER + call.replyLength);
            s.buf.set(JAVA_INT_UNALIGNED, 0, (int) call.compare);
            MemorySegment.copy(call.reply, 0, s.buf, JAVA_BYTE, REPLY_HEADER, call.replyLength);
            track(s, eps[call.srcNode][call.srcWorker].send(AM_REPLY, s.buf, REPLY_HEADER + call.replyLength, false));
            callPool.add(call);
        }
    }
}
