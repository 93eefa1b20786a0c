package org.rccj.fabrics.local;

import org.rccj.fabrics.threads.ThreadWorker;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.fabrics.MemoryOps;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The cluster in one JVM with real threads, one per worker. One-sided ops are executed by the issuing
 * thread on the target node's memory with real atomics; RPCs go through a queue into the target worker's
 * event loop, which runs the handler (so two-sided ops really cost the remote worker's CPU). An idle
 * worker spins briefly and then parks, so more workers than cores still make progress.
 */
public final class LocalFabric implements Fabric {
    private static final byte K_ARRIVE = 1, K_REPLY = 2;

    /** An op on this fabric: the request and whether it is in a worker's inbox as a request or as a reply. */
    private static final class LocalOp extends Op {
        byte kind;
    }
    /** An idle worker spins this long (polling its inbox) before it parks; a reply usually comes sooner. */
    private static final long SPIN_NS = 50_000;
    private static final long PARK_NS = 50_000;

    private final int nodes, threads;
    private final CostProfile cost;
    private final RegisteredMemory[] memory;
    private final LocalWorker[][] workers;
    private final AtomicInteger unfinished = new AtomicInteger();
    private final AtomicLong rpcsInFlight = new AtomicLong();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private volatile boolean stop;

    public LocalFabric(int nodes, int threads, CostProfile cost) {
        this.nodes = nodes;
        this.threads = threads;
        this.cost = cost;
        memory = new RegisteredMemory[nodes];
        workers = new LocalWorker[nodes][threads];
        for (int n = 0; n < nodes; n++) {
            memory[n] = RegisteredMemory.direct(n);
            for (int t = 0; t < threads; t++) workers[n][t] = new LocalWorker(n, t);
        }
    }

    @Override public String name() { return "local"; }
    @Override public int nodes() { return nodes; }
    @Override public int threads() { return threads; }
    @Override public RegisteredMemory memory(int node) { return memory[node]; }
    @Override public Endpoint endpoint(int node, int worker) { return workers[node][worker]; }

    /**
     * local_access: network: an RPC to the own node goes through the worker's inbox like any other (served at its
     * next poll, its reply too), and an own-node one-sided op counts as a network op with its doorbell; every
     * one-sided op is done by the issuing thread on the target's memory here, the own node's included.
     */
    @Override
    public void localThroughNic(boolean on) {
        for (LocalWorker[] ws : workers) for (LocalWorker w : ws) w.viaNic = on;
    }

    /** A thread per worker, on the wall clock; CPU atomics are atomic with the "NIC's" (the same CPU's). */
    @Override public boolean oneThread() { return false; }
    @Override public boolean virtualTime() { return false; }
    @Override public void oneSidedAtomics(boolean used) {}

    @Override
    public void run(WorkerHost[][] hosts) {
        unfinished.set(nodes * threads);
        ThreadWorker[] ws = new ThreadWorker[nodes * threads];
        WorkerHost[] hs = new WorkerHost[nodes * threads];
        for (int n = 0; n < nodes; n++) {
            for (int t = 0; t < threads; t++) {
                ws[n * threads + t] = workers[n][t];
                hs[n * threads + t] = hosts[n][t];
            }
        }
        ThreadWorker.runAll(ws, hs, "rcc-worker", () -> {}, () -> {
            stop = true;
            throw new IllegalStateException("interrupted while running the local fabric");
        });
        Throwable f = failure.get();
        if (f != null) {
            if (f instanceof RuntimeException re) throw re;
            if (f instanceof Error er) throw er;
            throw new IllegalStateException(f);
        }
    }

    private boolean allDone() {
        return stop || (unfinished.get() == 0 && rpcsInFlight.get() == 0);
    }

    private final class LocalWorker extends ThreadWorker {
        final ConcurrentLinkedQueue<Op> inbox = new ConcurrentLinkedQueue<>();

        LocalWorker(int node, int worker) { super(node, worker, cost, SPIN_NS, PARK_NS); }

        @Override public Op newOp() { return new LocalOp(); }

        @Override
        protected void loop() {
            try {
                while (!allDone()) {
                    long t0 = System.nanoTime();
                    boolean worked = false;
                    Op op;
                    while ((op = inbox.poll()) != null) {
                        worked = true;
                        if (((LocalOp) op).kind == K_ARRIVE) {
                            host.onRpc(op);
                        } else {
                            rpcsInFlight.decrementAndGet();
                            op.inFlight = false;
                            host.onComplete(op);
                        }
                    }
                    if (fireTimers(t0)) worked = true;
                    if (host.runOne()) worked = true;
                    if (justFinished()) unfinished.decrementAndGet();
                    endPass(t0, t0, worked);
                }
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
                stop = true;
            }
        }

        @Override protected boolean nothingQueued() { return inbox.isEmpty(); }

        void deliver(Op op) {
            inbox.add(op);
            wake();
        }

        @Override public long now() { return System.nanoTime(); }

        @Override public void post(Op op) { post1(op, true); }

        @Override
        public void post(Op[] ops, int n) {
            for (int i = 0; i < n; i++) post1(ops[i], i == 0);
        }

        private void post1(Op op, boolean doorbell) {
            op.posted(node, worker);
            boolean local = op.node == node && !viaNic;
            if (local) counters.local++; else counters.count(op);
            if (op.verb == Verb.RPC) {
                if (local) {
                    host.onRpc(op);
                    return;
                }
                rpcsInFlight.incrementAndGet();
                ((LocalOp) op).kind = K_ARRIVE;
                workers[op.node][worker % threads].deliver(op);
                return;
            }
            if (doorbell && !local) counters.doorbells++;
            MemoryOps.execute(memory[op.node], op);
            op.inFlight = false;
            if (op.signaled) host.onComplete(op);
        }

        @Override
        public void reply(Op call) {
            boolean shortcut = call.srcNode == node && !viaNic;     // a call the local shortcut made: it came as no message
            if (!call.signaled) {
                // passive RPC: no reply message; the handler has run, which is what a later reply would tell
                if (!shortcut) rpcsInFlight.decrementAndGet();
                call.inFlight = false;
                return;
            }
            if (shortcut && call.srcWorker == worker) {
                call.inFlight = false;
                host.onComplete(call);
                return;
            }
            if (shortcut) rpcsInFlight.incrementAndGet();   // balanced by the delivery below
            ((LocalOp) call).kind = K_REPLY;
            workers[call.srcNode][call.srcWorker].deliver(call);
        }

    }
}
