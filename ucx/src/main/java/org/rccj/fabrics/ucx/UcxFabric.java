package org.rccj.fabrics.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
import org.rccj.primitives.WorkerHost;
import org.rccj.ucx.Ucx;
import org.rccj.ucx.UcxContext;
import org.rccj.ucx.UcxEndpoint;


/**
 * The cluster's nodes talking through UCX (docs/architecture.md, fabrics; issue 20). Each node has its own UCP context and
 * registered memory UCX allocated ({@link MemoryStorage} over {@code ucp_mem_map(ALLOCATE)}); each worker thread
 * its own UCP worker with an endpoint to every worker of every other node. One-sided READ/WRITE/CAS/FAA are
 * {@code ucp_get/put/atomic_op_nbx} on the target's memory (a doorbell batch: the ops posted before the next
 * progress; an unsignaled op is not awaited by its coroutine, the fabric only notes when it finished); an RPC is
 * an active message to the target worker of the same index, served at that worker's poll point, answered by a
 * reply message from whichever worker replies. A passive (unsignaled) RPC is answered by no message: its call id
 * rides back on that worker's next reply to the sender, or in an ack message when 16 are pending for one sender or
 * the worker is about to sleep; the sender's op stays in flight until then (docs/decisions/0124-ucx-passive-rpcs.md). Every
 * worker progresses its UCP worker at each loop pass and keeps doing so while idle (spinning 50 us, then asleep on
 * UCX's event fd), since on TCP, and on shared memory without UCX-allocated memory, the target's progress is what
 * completes one-sided ops.
 *
 * <p>Two forms, one data plane. {@link #join}: this process is one node of a cluster on the control plane
 * ({@link ClusterNode}: membership, secret, heartbeats, abort, barrier, gather); the nodes exchange their workers'
 * addresses and their memory keys as the per-node blob, connect, and wire every endpoint up before the start barrier.
 * {@link #inProcess}: every node in this process, each with its own context, so traffic between nodes still goes
 * through UCX's shared-memory or TCP transports (what the test matrix and single-host experiments use).
 */
public sealed class UcxFabric implements Fabric permits UcxFabric.Node {
    static final int AM_CALL = 1, AM_REPLY = 2, AM_ACK = 3;
    /** Call header: source node, source worker, handler, flags (u16 each), call id (i32); then the request. */
    static final int CALL_SRC_NODE = 0, CALL_SRC_WORKER = 2, CALL_HANDLER = 4, CALL_FLAGS = 6, CALL_ID = 8, CALL_HEADER = 12;
    /** CALL_FLAGS: a passive RPC (no reply message; its id comes back in a later reply or ack). */
    static final int FLAG_PASSIVE = 1;
    /** Reply: call id, number of acks (i32 each), the acks' call ids (i32 each), then the reply. Ack: the same without the call id. */
    static final int REPLY_ID = 0, REPLY_ACKS = 4, REPLY_FIXED = 8, ACK_COUNT = 0, ACK_FIXED = 4;
    /**
     * Passive RPCs a worker acknowledges at most before it sends them in an ack message of their own: bounds how many
     * of a sender's passive RPCs (ops it cannot reuse) stay unacknowledged while this worker sends it no reply.
     */
    static final int ACK_BATCH = 16;
    static final long SPIN_NS = 50_000, PARK_NS = 200_000;
    static final int RESUMES_PER_PASS = 16;
    static final int CHUNK_BITS = ChunkedMemory.CHUNK_SHIFT;
    static final long CHUNK_MASK = (1L << CHUNK_BITS) - 1;

    /** The node this process hosts, or -1 when it hosts every node ({@link #inProcess}). */
    private final int self;
    /** The control plane ({@link #join}), or null in one process. */
    final ClusterNode cluster;
    private final long base;
    private volatile boolean running;
    private final Endpoint[][] views;
    final int nodes, threads;
    final CostProfile cost;
    private final Map<String, String> ucxConfig;
    private final UcxContext[] contexts;
    private final Arena memoryArena = Arena.ofShared();
    final RegisteredMemory[] memory;
    /** Per hosted node: registered chunks by region then chunk (address, packed key). */
    private final List<List<Blob.Chunk>>[] chunks;
    final UcxFabricWorker[][] workers;
    final AtomicInteger unfinished = new AtomicInteger();
    /** Local calls answered by another worker of their node (handed over), not yet taken by their caller's worker. */
    final AtomicInteger handedOverCalls = new AtomicInteger();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    volatile boolean stop;
    private boolean connected, closed, oneSidedAtomics;
    /** ucx.loopback_atomics: always (not only where a peer's one-sided ops run on RDMA hardware). */
    private boolean loopbackAlways;
    /** The worker whose thread is running (the loopback route posts on its UCX worker); null off the workers' threads. */
    static final ThreadLocal<UcxFabricWorker> CURRENT = new ThreadLocal<>();
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
        @Override public void announceWindow(long start) { cluster.announceWindow(start); }
        @Override public long announcedWindow() { return cluster.announcedWindow(); }
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
        workers = new UcxFabricWorker[nodes][];
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
            workers[n] = new UcxFabricWorker[threads];
            for (int t = 0; t < threads; t++) views[n][t] = workers[n][t] = new UcxFabricWorker(this, n, t, ctx.newWorker());
        }
        if (cs == null) {
            cluster = null;
            base = 0;
        } else {
            cluster = ClusterNode.join(cs, 1, new DataPlane() {
                @Override public boolean finished() { return running && unfinished.get() == 0 && nothingInFlight(); }
                // a worker asleep on its event fd sees the stop within PARK_NS (no ucp_worker_signal here: the
                // control plane may stop a run whose workers were already destroyed)
                @Override public void stopping() { for (UcxFabricWorker w : workers[self]) if (w.thread != null) LockSupport.unpark(w.thread); }
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
        while (barrier.isAlive()) for (UcxFabricWorker w : workers[self]) w.ucx.progress();
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
    @Override public boolean oneThread() { return false; }
    @Override public boolean virtualTime() { return false; }

    /** local_access: network: own-node RPCs are messages served at the worker's poll (see ThreadWorker#viaNic). */
    @Override
    public void localThroughNic(boolean on) {
        for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) w.viaNic = on;
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
        for (int n = 0; n < nodes; n++) if (hosts(n)) for (UcxFabricWorker w : workers[n]) w.connect(blobs);
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

    /** CPU atomics that went through UCX on the own endpoint (summary.json's ucx.loopback_atomics; after {@link #run}). */
    public long loopbackAtomicCount() {
        long n = 0;
        for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) n += w.loopbackAtomics;
        return n;
    }

    /** CPU atomics on a hosted node's memory, made on a worker's thread: through UCX on its own endpoint. */
    private final RegisteredMemory.CpuAtomics loopbackRoute = new RegisteredMemory.CpuAtomics() {
        @Override
        public long cas(RegisteredMemory m, int region, long off, long expect, long update) {
            UcxFabricWorker w = CURRENT.get();
            if (w == null || w.node() != m.node()) return m.casDirect(region, off, expect, update);   // loading, checking
            return w.loopback(true, region, off, expect, update);
        }

        @Override
        public long faa(RegisteredMemory m, int region, long off, long delta) {
            UcxFabricWorker w = CURRENT.get();
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
            for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) w.ucx.progress();
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

    boolean allDone() {
        if (cluster != null) return stop || cluster.stopped();
        return stop || (unfinished.get() == 0 && nothingInFlight());
    }

    /**
     * No op of a hosted worker is in flight (read after {@code unfinished} reached 0: a worker's count was written
     * before it decremented that, so a finished worker's outstanding ops are seen).
     */
    private boolean nothingInFlight() {
        if (handedOverCalls.get() != 0) return false;
        for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) if ((long) UcxFabricWorker.OUTSTANDING.getAcquire(w) != 0) return false;
        return true;
    }

    /** Reply messages sent by every hosted worker (signaled RPCs' replies), for the tests. */
    long replyMessages() {
        long n = 0;
        for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) n += w.repliesSent;
        return n;
    }

    /** Ack messages (passive RPCs' ids sent on their own, not with a reply) sent by every hosted worker, for the tests. */
    long ackMessages() {
        long n = 0;
        for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) n += w.acksSent;
        return n;
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        stop = true;
        if (cluster != null) cluster.close();
        for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) w.closeEndpoints();
        for (UcxFabricWorker[] ws : workers) if (ws != null) for (UcxFabricWorker w : ws) w.ucx.close();
        memoryArena.close();
        for (UcxContext c : contexts) if (c != null) c.close();
    }


    /** An op (or a message) handed to UCX and not finished yet, with the native buffer it uses. */
    static final class Slot {
        static final byte ONE_SIDED = 0, CALL = 1, REPLY = 2, FLUSH = 3;
        byte kind;
        Op op;
        long request;
        MemorySegment buf;
        /** FLUSH: the WRITE slots of its batch, finished when the flush is (remote completion). */
        final ArrayList<Slot> writes = new ArrayList<>();
    }

}
