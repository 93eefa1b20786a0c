package org.rccj.fabrics.sim;

import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.NicAction;
import org.rccj.primitives.Op;
import org.rccj.primitives.PathTrace;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Simulation;
import org.rccj.primitives.SmartNic;
import org.rccj.primitives.WorkerHost;
import java.util.Optional;

/**
 * Deterministic discrete-event simulation of the whole cluster, on the calling thread or on {@code sim.threads}
 * threads with the same result. Virtual time in ns.
 *
 * <p>Model: each worker is a simulated core with a clock ({@code cpuAt}); everything a worker does
 * (posting, polling, handlers, coroutine work) advances that clock by the profile's costs. Each node has
 * one NIC whose processing units serve everything the NIC does, in arrival order: requester work of
 * one-sided verbs (WQE fetch per doorbell, per WQE, completion DMA per signaled op), responder work per
 * verb, and two-sided messages sent and received; plus QP-context cache misses for RC (one-sided) work
 * and an egress link at the profile's bandwidth. Wire latency is the profile's one-way figure. One-sided ops touch the target's memory at
 * the instant the responder NIC executes them, so concurrent transactions interleave as they would on
 * the hardware. Ties are broken by posting order: the same inputs give the same run, bit for bit.
 *
 * <p>Engine (decision 0146): one logical process ({@link LogicalProcess}) per node, with its own event queue and clock, run in
 * windows of virtual time as long as the smallest one-way wire latency (no node can affect another inside one);
 * events for other nodes wait in the sender's outbox until the window's end ({@link WindowEngine}). The same engine
 * runs on one thread or on {@code sim.threads}, with the same result.
 *
 * <p>Its own capabilities ({@link #capability}): {@link Simulation} (threads, events, virtual time), {@link SmartNic}
 * (simulated NIC hardware) and, unless {@code sim.critical_path: false}, {@link PathTrace} (critical paths; the marks
 * are skipped entirely when off). Its ops are {@link SimOp}s, made by its endpoints.
 */
public final class SimFabric implements Fabric, Simulation, SmartNic {
    /**
     * Event kinds. A one-sided op reaches the target NIC (K_NIC_ARRIVE), which serves ops in arrival order
     * at its per-verb rate and executes it (K_NIC, at once when the NIC is idle); the completion comes back
     * (K_DONE). An RPC request or reply reaches the receiving NIC (K_MSG_REQUEST / K_MSG_REPLY), which
     * serves messages in arrival order at its message rate, then the receiving worker gets it
     * (K_RPC_ARRIVE / K_REPLY). The responder's NIC time is taken when an op arrives, in its node's time order;
     * the requester's (WQE fetch and processing, a message's send work) when the op leaves, on the sender's own
     * node, as its egress link is (decision 0146).
     */
    static final byte K_NIC = 1, K_DONE = 2, K_RPC_ARRIVE = 3, K_REPLY = 4, K_TIMER = 5, K_RUN = 6 /* a worker's RUN (SimWorker#scheduleRun) */,
            K_NIC_ARRIVE = 7, K_MSG_REQUEST = 8, K_MSG_REPLY = 9, K_ATOMIC_WRITE = 10;

    final int nodes, threads;
    final CostProfile cost;
    final FaultSettings faults;
    final RegisteredMemory[] memory;
    final SimNic[] nics;
    final SimWorker[][] workers;
    final LogicalProcess[] lps;
    /** sim.threads: how many threads run the windows (1: the calling thread alone). */
    private int simThreads;
    private WindowEngine engine;
    /** Tests only: see {@link WindowEngine}'s {@code beforeNode}. */
    java.util.function.IntConsumer beforeNode;
    /** NIC time of a QP-context miss per RC op side, averaged over the uniform access to all QPs. */
    double qpMissNs;
    /** Expected latency an RC op pays for QP-context misses at its two ends (a PCIe round trip per miss). */
    long qpMissDelayNs;
    /** local_access: network: ops and RPCs to the own node go through the NIC (loopback, no wire). */
    boolean viaNic;
    /** CPU atomics go through the local NIC (profile: NIC atomics incoherent, and the run uses them). */
    boolean loopback;
    /** sim.critical_path: ops carry a path and the engine marks it; false: no mark at all. */
    final boolean paths;

    public SimFabric(int nodes, int threads, CostProfile cost, FaultSettings faults) { this(nodes, threads, cost, faults, 1); }

    /** @param simThreads threads that simulate the cluster (sim.threads; at most one per node is used) */
    public SimFabric(int nodes, int threads, CostProfile cost, FaultSettings faults, int simThreads) {
        this(nodes, threads, cost, faults, simThreads, true);
    }

    /**
     * @param simThreads threads that simulate the cluster (sim.threads; at most one per node is used)
     * @param paths whether ops' critical paths are traced (sim.critical_path)
     */
    public SimFabric(int nodes, int threads, CostProfile cost, FaultSettings faults, int simThreads, boolean paths) {
        this.paths = paths;
        this.nodes = nodes;
        this.threads = threads;
        this.cost = cost;
        this.faults = faults;
        memory = new RegisteredMemory[nodes];
        nics = new SimNic[nodes];
        workers = new SimWorker[nodes][threads];
        lps = new LogicalProcess[nodes];
        this.simThreads = Math.max(1, Math.min(simThreads, nodes));
        // RC: a QP per (worker, remote node), counted per NIC as DrTM+H counts them (80 nodes x 12 workers per
        // NIC = 960 QPs); UD two-sided messages need one QP per worker and never miss
        qpContexts((long) threads * (nodes - 1));
        for (int n = 0; n < nodes; n++) {
            memory[n] = RegisteredMemory.direct(n);
            nics[n] = new SimNic();
            lps[n] = new LogicalProcess(this, n);
            for (int t = 0; t < threads; t++) workers[n][t] = new SimWorker(this, lps[n], t);
        }
    }

    /**
     * Tells the fabric whether remote one-sided atomics may touch registered memory in this run. When they
     * may and the profile's NIC atomics are not coherent with CPU atomics, every CPU atomic on registered
     * memory (RPC handlers through {@link RegisteredMemory#cas}, coordinators through the local shortcut)
     * goes through the local NIC at the loopback cost, as DrTM and DrTM+H do on ConnectX-3/4.
     */
    @Override
    public void oneSidedAtomics(boolean used) {
        loopback = used && !cost.nicAtomicsCoherent && !faults.cpuLocalAtomics();
        for (RegisteredMemory m : memory) m.cpuAtomics(loopback || faults.incoherentAtomics() ? cpuAtomics : null);
    }

    private void qpContexts(long qps) {
        qpMissNs = cost.qpMissNs * cost.qpMissFraction(qps);
        qpMissDelayNs = Math.round(2 * cost.qpMissLatencyNs * cost.qpMissFraction(qps));
    }

    /**
     * {@code local_access: network}: a worker's ops and RPCs to its own node go through its NIC as the artifact's do
     * (a QP to self: one more RC QP per worker; an RPC is a message to the own node, served at the worker's poll
     * point): the NIC's requester and responder work, the loopback latency, no link and no wire.
     */
    @Override
    public void localThroughNic(boolean on) {
        viaNic = on;
        qpContexts((long) threads * (on ? nodes : nodes - 1));
    }

    /** True when CPU atomics take the loopback path in this run. */
    public boolean loopbackAtomics() { return loopback; }

    /** CPU atomics that went through the local NIC; CPU atomics that ran inside a NIC atomic (fault). */
    public long loopbackAtomicCount() { long s = 0; for (LogicalProcess lp : lps) s += lp.loopbackAtomics; return s; }
    public long atomicRaces() { long s = 0; for (LogicalProcess lp : lps) s += lp.atomicRaces; return s; }

    /** The threads that simulate the cluster (sim.threads, at most one per node; 1 once forced sequential). */
    @Override public int simThreads() { return simThreads; }

    @Override
    public <T> Optional<T> capability(Class<T> type) {
        if (type == Simulation.class || type == SmartNic.class) return Optional.of(type.cast(this));
        if (type == PathTrace.class && paths) return Optional.of(type.cast(PathMarks.TRACE));
        return Optional.empty();
    }

    /** Runs this cluster on one thread whatever sim.threads says (a feature that cannot run in parallel). */
    @Override public void sequential() { simThreads = 1; }

    /** CPU time of the simulation threads other than the caller's, ns (0 on one thread). */
    @Override public long otherThreadsCpuNanos() { return engine == null ? 0 : engine.otherCpuNanos(); }

    /** Expected NIC time per RC op side spent on QP-context misses in this cluster (for reports). */
    public double qpMissNsPerOp() { return qpMissNs; }

    private final RegisteredMemory.CpuAtomics cpuAtomics = new RegisteredMemory.CpuAtomics() {
        @Override
        public long cas(RegisteredMemory m, int region, long off, long expect, long update) {
            lps[m.node()].enterCpuAtomic(m, region, off);
            return m.casDirect(region, off, expect, update);
        }

        @Override
        public long faa(RegisteredMemory m, int region, long off, long delta) {
            lps[m.node()].enterCpuAtomic(m, region, off);
            return m.faaDirect(region, off, delta);
        }
    };

    @Override public String name() { return "sim"; }
    @Override public boolean oneThread() { return true; }
    @Override public boolean virtualTime() { return true; }
    @Override public int nodes() { return nodes; }
    @Override public int threads() { return threads; }
    @Override public RegisteredMemory memory(int node) { return memory[node]; }
    @Override public Endpoint endpoint(int node, int worker) { return workers[node][worker]; }

    /** READs split by the torn-read fault, and how many of them saw memory change while in flight. */
    public long tornReads() { long s = 0; for (LogicalProcess lp : lps) s += lp.tornReads; return s; }
    public long tornReadsObserved() { long s = 0; for (LogicalProcess lp : lps) s += lp.tornObserved; return s; }

    /** Events processed (for simulator speed reports; exact once the run is over). */
    @Override public long events() { long s = 0; for (LogicalProcess lp : lps) s += lp.events; return s; }
    /** The virtual time reached so far, ns (the current window's start; read by a progress display on another thread). */
    @Override public long virtualNow() { return engine == null ? 0 : engine.windowStart(); }

    @Override public Op atNic(Op op, NicAction action) { ((SimOp) op).nicAction = action; return op; }
    @Override public Op byNic(Op op) { ((SimOp) op).fromNic = true; return op; }
    @Override public boolean byNicOf(Op op) { return ((SimOp) op).fromNic; }
    @Override public Op newOp() { return new SimOp(paths); }

    /** Called by simulated NIC hardware on node {@code from}'s logical process (its thread). */
    @Override
    public void send(int from, Op message, long at) {
        SimOp op = (SimOp) message;
        LogicalProcess lp = lps[from];
        op.postedOnOneThread(from, 0);
        op.signaled = false;
        op.rang = false;
        op.fromNic = true;
        SimNic src = nics[from];
        op.kind = K_NIC_ARRIVE;
        op.result = 0;
        long t = Math.max(at, lp.now);
        lp.send(op, src.leave(t, op.length, false, cost), op.node);
        lp.requesterWork(op, t);
    }

    @Override
    public void run(WorkerHost[][] hosts) {
        for (int n = 0; n < nodes; n++) {
            for (int t = 0; t < threads; t++) {
                SimWorker w = workers[n][t];
                w.host = hosts[n][t];
                w.scheduleRun();
            }
        }
        engine = new WindowEngine(lps, cost.oneWayNs, simThreads, beforeNode);
        engine.run();
        for (int n = 0; n < nodes; n++) {
            for (int t = 0; t < threads; t++) {
                if (!hosts[n][t].finished()) {
                    throw new IllegalStateException("simulation stalled at " + lps[n].now + " ns: worker " + n + "/" + t
                            + " has coroutines waiting for operations that will never complete (a lost wake-up)");
                }
            }
        }
    }
}
