package org.rccj.fabrics.tcp;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.rccj.fabrics.cluster.ClusterNode;
import org.rccj.fabrics.cluster.RemoteView;
import org.rccj.fabrics.cluster.Link;
import org.rccj.fabrics.threads.ThreadWorker;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.Op;
import org.rccj.primitives.ProcessGroup;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;

/**
 * One node of a cluster whose nodes are separate processes talking TCP (docs/architecture.md, fabrics): the data plane on top
 * of the cluster control plane ({@link ClusterNode}: start-up, handshake, clock, heartbeats, abort, barrier, gather).
 * This process owns its node's registered memory and worker threads; the control plane's network thread is the
 * soft NIC ({@link SoftNic}) on the non-blocking, TCP_NODELAY connections to the peer processes (one per peer, or
 * one per worker thread and peer: {@link TcpSettings.Connections}); RPC requests go to the target worker's event
 * loop. Workers encode their own frames ({@link Lane}) into the peer's outgoing buffer and write it at the end of
 * each event-loop pass (posts of that pass leave in one write); what the socket does not take the network thread
 * finishes.
 *
 * <p>Memory of the other nodes exists here too, as an unused shadow (the store loads every node's rows the same
 * way in every process, so region ids and offsets agree); after the run node 0 overwrites the shadows with the
 * nodes' final memory to check the workload invariants.
 */
public final class TcpFabric implements Fabric, ProcessGroup {
    private static final long SPIN_NS = 20_000, PARK_NS = 50_000;
    /** Coroutine resumes per event-loop pass before the loop polls and writes again. */
    private static final int RESUMES_PER_PASS = 16;

    final int nodes, threads, self;
    private final CostProfile cost;
    private final RegisteredMemory[] memory;
    private final TcpWorker[] workers;
    private final Endpoint[][] views;
    /**
     * Connections per peer node (TcpSettings.Connections): 1 (one per process pair, shared by all workers) or
     * {@code threads} (worker t's requests to node j go over lane t of j, and come back on it).
     */
    final int lanes;
    /** The data plane of each connection to each peer node ({@code [node][lane]}, none to this node). */
    private final Lane[][] peers;
    private final SoftNic nic;
    private final ClusterNode cluster;
    /** Local nanoTime of cluster time 0 (node 0's start-up). */
    private final long base;
    private final AtomicInteger unfinished = new AtomicInteger();
    /** Ops posted by this node's workers that have not completed (remote ops and cross-worker replies). */
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean running;

    /** Starts this node: binds, meets every other node (handshake), syncs the clock. Blocks until all joined. */
    public static TcpFabric join(int threads, CostProfile cost, TcpSettings s) { return new TcpFabric(threads, cost, s); }

    private TcpFabric(int threads, CostProfile cost, TcpSettings s) {
        this.nodes = s.nodes();
        this.threads = threads;
        this.self = s.self();
        this.cost = cost;
        lanes = s.connections() == TcpSettings.Connections.THREAD ? threads : 1;
        memory = new RegisteredMemory[nodes];
        views = new Endpoint[nodes][threads];
        workers = new TcpWorker[threads];
        boolean valid = self >= 0 && self < nodes;
        for (int n = 0; n < nodes; n++) {
            memory[n] = n == self ? RegisteredMemory.direct(n) : RegisteredMemory.shadow(n);
            for (int t = 0; t < threads; t++) views[n][t] = n == self ? null : new RemoteView(n, t, self, () -> cluster().now(), cost);
        }
        for (int t = 0; t < threads && valid; t++) {
            workers[t] = new TcpWorker(t);
            views[self][t] = workers[t];
        }
        peers = new Lane[nodes][];
        for (int n = 0; n < nodes; n++) peers[n] = n == self ? null : new Lane[lanes];
        nic = new SoftNic(this);
        cluster = ClusterNode.join(s.cluster(), lanes, nic);
        base = cluster.base();
    }

    /** A connection is up (before the network thread starts): its data-plane side. */
    void connected(Link link) { peers[link.node][link.lane] = new Lane(this, link); }

    // ---------------------------------------------------------------- ProcessGroup: the control plane's

    @Override public int self() { return self; }
    @Override public long startBarrier(byte[] descriptor) { return cluster.startBarrier(descriptor); }
    @Override public void announceWindow(long start) { cluster.announceWindow(start); }
    @Override public long announcedWindow() { return cluster.announcedWindow(); }
    @Override public byte[][] gather(byte[] mine) { return cluster.gather(mine); }

    /** The control plane this node's data plane runs on. */
    ClusterNode cluster() { return cluster; }

    // ---------------------------------------------------------------- Fabric

    @Override public String name() { return "tcp"; }
    @Override public int nodes() { return nodes; }
    @Override public int threads() { return threads; }
    @Override public RegisteredMemory memory(int node) { return memory[node]; }
    @Override public Endpoint endpoint(int node, int worker) { return views[node][worker]; }
    @Override public boolean hosts(int node) { return node == self; }
    @Override public long origin() { return 0; }

    @Override
    public void run(WorkerHost[][] hosts) {
        cluster.checkFailure();
        unfinished.set(threads);
        ThreadWorker.runAll(workers, hosts[self], "rcc-worker", () -> {
            nic.hostsReady = true;
            cluster.wakeup();       // RPCs held until now are checked and delivered
            running = true;
        }, () -> cluster.fail("node " + self + ": interrupted"));
        running = false;
        cluster.checkFailure();
    }

    /** This node's workers are done and nothing they posted is in flight (the control plane then reports done). */
    boolean finished() { return running && unfinished.get() == 0 && inFlight.get() == 0; }

    /** The run stops: workers parked in their idle wait see it at once. */
    void wakeWorkers() {
        for (TcpWorker w : workers) if (w != null && w.thread != null) LockSupport.unpark(w.thread);
    }

    TcpWorker worker(int t) { return workers[t]; }

    Lane lane(Link link) { return peers[link.node][link.lane]; }

    /** How many connections this node has to its peers (tests: the layout really is the one asked for). */
    int connections() { return cluster.connections(); }

    /** The reason the run stopped, or null. */
    public String failure() { return cluster.failure(); }

    @Override public void close() { cluster.close(); }

    /** local_access: network: own-node RPCs are messages served at the worker's poll (see ThreadWorker#viaNic). */
    @Override
    public void localThroughNic(boolean on) {
        for (TcpWorker w : workers) w.viaNic = on;
    }

    /** A thread per worker, on the wall clock; one-sided atomics are served by the target's soft NIC thread. */
    @Override public boolean oneThread() { return false; }
    @Override public boolean virtualTime() { return false; }
    @Override public void oneSidedAtomics(boolean used) {}

    /**
     * A remote op finished: signaled ones go to their worker's event loop, unsignaled ones are just done (a passive
     * RPC too: its target replies on the wire anyway, which costs a frame but tells exactly when its handler ran).
     */
    void complete(Op op) {
        if (op.signaled) {
            workers[op.srcWorker].finish(op);
        } else {
            op.inFlight = false;
            inFlight.decrementAndGet();
        }
    }

    // ---------------------------------------------------------------- workers

    final class TcpWorker extends ThreadWorker {
        final ConcurrentLinkedQueue<Op> calls = new ConcurrentLinkedQueue<>(), finished = new ConcurrentLinkedQueue<>();
        final boolean[] dirty = new boolean[nodes];

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

        @Override protected void arriveHere(Op call) { calls.add(call); }

        @Override
        protected void loop() {
            try {
                while (!cluster.stopped()) {
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
                cluster.fail("node " + self + " worker " + worker + " failed: " + t);
            }
        }

        private void flushDirty() {
            for (int n = 0; n < nodes; n++) {
                if (dirty[n]) {
                    dirty[n] = false;
                    Link p = peers[n][lane].link;
                    if (!p.blocked()) p.flush();
                }
            }
        }

        @Override public long now() { return System.nanoTime() - base; }
        // the stages send ordinary RPCs here (the wire's passive RPCs are not used by the stages on tcp yet)
        @Override public boolean passiveRpc() { return false; }

        @Override
        public void post(Op op) {
            if (op.verb == Verb.RPC) {
                if (!rpcLeaves(op)) return;
                inFlight.incrementAndGet();
                peers[op.node][lane].sendRpc(op);
                dirty[op.node] = true;
                return;
            }
            postAlone(op);
        }

        @Override
        public void post(Op[] ops, int n) {
            if (n == 0) return;
            int dst = ops[0].node;
            if (dst == self) {
                executeLocally(memory[self], ops, n);
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
            Lane p = peers[call.srcNode][call.srcWorker % lanes];
            p.sendReply(call);
            if (p.link.lane == lane) dirty[call.srcNode] = true;
            else if (!p.link.blocked()) p.link.flush();
            nic.callPool.add(call);
        }

    }
}
