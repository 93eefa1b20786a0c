package org.rccj.fabrics.sim;

import org.rccj.primitives.Bytes;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Counters;
import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.fabrics.MemoryOps;
import org.rccj.primitives.NicAction;
import org.rccj.primitives.Op;
import org.rccj.primitives.PathTrace;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Simulation;
import org.rccj.primitives.SmartNic;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;
import java.util.Arrays;
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
 * <p>Engine (decision 0146): one logical process ({@link Lp}) per node, with its own event queue and clock, run in
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
    private final FaultSettings faults;
    final RegisteredMemory[] memory;
    final SimNic[] nics;
    private final SimWorker[][] workers;
    final Lp[] lps;
    /** sim.threads: how many threads run the windows (1: the calling thread alone). */
    private int simThreads;
    private WindowEngine engine;
    /** NIC time of a QP-context miss per RC op side, averaged over the uniform access to all QPs. */
    double qpMissNs;
    /** Expected latency an RC op pays for QP-context misses at its two ends (a PCIe round trip per miss). */
    private long qpMissDelayNs;
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
        lps = new Lp[nodes];
        this.simThreads = Math.max(1, Math.min(simThreads, nodes));
        // RC: a QP per (worker, remote node), counted per NIC as DrTM+H counts them (80 nodes x 12 workers per
        // NIC = 960 QPs); UD two-sided messages need one QP per worker and never miss
        qpContexts((long) threads * (nodes - 1));
        for (int n = 0; n < nodes; n++) {
            memory[n] = RegisteredMemory.direct(n);
            nics[n] = new SimNic();
            lps[n] = new Lp(n);
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
    public long loopbackAtomicCount() { long s = 0; for (Lp lp : lps) s += lp.loopbackAtomics; return s; }
    public long atomicRaces() { long s = 0; for (Lp lp : lps) s += lp.atomicRaces; return s; }

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
    public long tornReads() { long s = 0; for (Lp lp : lps) s += lp.tornReads; return s; }
    public long tornReadsObserved() { long s = 0; for (Lp lp : lps) s += lp.tornObserved; return s; }

    /** Events processed (for simulator speed reports; exact once the run is over). */
    @Override public long events() { long s = 0; for (Lp lp : lps) s += lp.events; return s; }
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
        Lp lp = lps[from];
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
        engine = new WindowEngine(lps, cost.oneWayNs, simThreads);
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

    /**
     * A logical process: one node's events, clock and counters, and what it sends to other nodes until the window's
     * end. Inside a window only the thread that runs it touches it (and its node's NIC, memory and workers).
     */
    final class Lp {
        final int node;
        final EventQueue queue = new EventQueue();
        long now;
        /** End of the current window: nothing from another node arrives before it. */
        long windowEnd;
        long events;
        long tornReads, tornObserved;
        long loopbackAtomics, atomicRaces;
        private byte[] tornCheck = new byte[64];
        /** The worker whose core is running (handlers and coroutines), for CPU atomics; null outside. */
        SimWorker current;
        /** The CPU atomic being routed was posted by a coordinator (local shortcut): it completes later. */
        boolean postedAtomic;
        /**
         * What this node tells other nodes, by the thread that runs them, for two windows in turn (the one being run
         * and the one being merged): see {@link WindowEngine}.
         */
        Outbox[][] boxes;
        /** Which of the two sets of outboxes this window fills; the smallest time sent in it. */
        int parity;
        long sentMin = Long.MAX_VALUE;

        Lp(int node) { this.node = node; }

        /** Processes every event of this node before {@code end}. */
        void runWindow(long end) {
            windowEnd = end;
            EventQueue q = queue;
            while (q.peekTime() < end) {
                SimOp e = q.pop();
                now = e.time;
                events++;
                dispatch(e);
            }
        }

        /** Queues {@code e} at {@code time} on node {@code to}: here at once, another node's at the window's end. */
        void send(SimOp e, long time, int to) {
            if (to == node) {
                queue.push(e, time);
                return;
            }
            if (time < windowEnd) {
                throw new IllegalStateException("sim: an event from node " + node + " reaches node " + to + " at " + time
                        + " ns, inside the window ending at " + windowEnd + " ns (the lookahead is broken)");
            }
            e.time = time;
            if (time < sentMin) sentMin = time;
            boxes[parity][to % boxes[parity].length].add(e, to);
        }

        /** An unsignaled op of another node executed here: its pool sees it free from the window's end (decision 0146). */
        void landed(SimOp op) { boxes[parity][op.srcNode % boxes[parity].length].landed.add(op); }

        /** A passive RPC of another node handled here: its sender sees it from the window's end (decision 0146). */
        void handled(SimOp op) { boxes[parity][op.srcNode % boxes[parity].length].handled.add(op); }

        /**
         * The requester NIC's work for a one-sided op leaving at {@code at} (WQE fetch per doorbell, per WQE, its
         * QP-context misses): capacity taken in the order ops leave, the op is not held (decision 0146).
         */
        void requesterWork(SimOp op, long at) { nicWork(at, (op.rang ? cost.nicWqeFetchNs : 0) + cost.nicWqeNs + qpMissNs); }

        /** The sending NIC's work for a two-sided message leaving at {@code at} (decision 0146). */
        void sendWork(long at) { nicWork(at, cost.nicSendNs); }

        /** {@code work} ns of this node's NIC, taken from {@code at} in the order asked (and its nic.on_cores share). */
        private void nicWork(long at, double work) {
            SimNic nic = nics[node];
            nic.freeAt = Math.max(at, nic.freeAt) + work;
            onCores(node, work);
        }

        /**
         * A CPU atomic on node {@code m}'s memory by the running worker. With loopback it becomes a NIC atomic
         * of the local NIC: the core posts it and waits for it ({@code nic.loopback_ns}), it takes the NIC's
         * processing time, and it is ordered after a NIC atomic that is between its read and its write. Without
         * loopback (coherent NIC, or the test-only faults.cpu_local_atomics), it is a plain CPU atomic: under
         * faults.incoherent_atomics it may then land inside a NIC atomic and be lost.
         */
        private void enterCpuAtomic(RegisteredMemory m, int region, long off) {
            SimWorker w = current;
            if (w == null) return;     // loading, checking: not part of the simulated run
            SimNic nic = nics[m.node()];
            Op p = nic.pendingAtomic;
            if (!loopback) {
                if (p != null && p.region == region && p.offset == off) atomicRaces++;
                return;
            }
            loopbackAtomics++;
            w.charge(cost.doorbellNs + cost.postWqeNs);
            if (p != null) {
                if (nic.pendingWriteAt > w.cpuAt) w.charge(nic.pendingWriteAt - w.cpuAt);
                finishAtomic(nic, p);
            }
            double exec = Math.max(Math.max(now, w.cpuAt), nic.freeAt);
            nic.freeAt = exec + cost.nicWqeFetchNs + cost.nicWqeNs + cost.nicAtomicNs + cost.nicCqeNs;
            // a handler needs the result before it can go on: its core waits; a coordinator's posted atomic
            // completes later like any op (its coroutine waits, the core does not)
            if (!postedAtomic) w.charge(cost.loopbackNs + cost.pollCqNs);
            if (nic.atomicFreeAt < w.cpuAt) nic.atomicFreeAt = w.cpuAt;
        }

        /** Writes a pending NIC atomic's value (faults.incoherent_atomics); its completion follows its event. */
        private void finishAtomic(SimNic nic, Op p) {
            memory[p.node].putLongVolatile(p.region, p.offset, nic.pendingValue);
            nic.pendingAtomic = null;
        }

        private void dispatch(SimOp op) {
            switch (op.kind) {
                case K_NIC -> executeAtNic(op);
                case K_NIC_ARRIVE -> {
                    // the requester NIC's work was taken when the op left (requesterWork)
                    SimNic dst = nics[op.node];
                    double exec = Math.max(now + qpMissDelayNs, dst.freeAt);
                    if (faults.incoherentAtomics()) {
                        // the NIC keeps its own ops in order around an atomic (reserved in arrival order from its
                        // read to its write): the fault breaks atomicity with CPU atomics only
                        exec = Math.max(exec, dst.atomicFreeAt);
                        if (op.verb == Verb.CAS || op.verb == Verb.FAA) dst.atomicFreeAt = (long) Math.ceil(exec) + cost.atomicGapNs + 1;
                    }
                    double service = cost.nicServiceNs(op);
                    dst.freeAt = exec + service + qpMissNs;     // summed in this order: the same doubles as ever
                    onCores(op.node, service + qpMissNs);
                    long at = (long) Math.ceil(exec);
                    if (paths) PathMarks.atResponder(op, now, qpMissDelayNs, at);
                    if (at > now) {
                        op.kind = K_NIC;
                        queue.push(op, at);
                    } else {
                        executeAtNic(op);
                    }
                }
                case K_MSG_REQUEST, K_MSG_REPLY -> {
                    boolean request = op.kind == K_MSG_REQUEST;
                    // the sender NIC's work was taken when the message left (sendWork)
                    SimNic dst = nics[request ? op.node : op.srcNode];
                    double exec = Math.max(now, dst.freeAt);
                    double recv = Math.max(cost.nicRecvNs, (request ? op.length : op.replyLength) / cost.linkBytesPerNs);
                    dst.freeAt = exec + recv;
                    onCores(request ? op.node : op.srcNode, recv);
                    long at = (long) Math.ceil(exec);
                    if (paths) op.mark(request ? CriticalPath.RESPONDER_NIC_WAIT : CriticalPath.REQUESTER_NIC_WAIT, at);
                    op.kind = request ? K_RPC_ARRIVE : K_REPLY;
                    if (at > now) {
                        queue.push(op, at);
                    } else if (request) {
                        workers[op.node][op.srcWorker % threads].arrive(op);
                    } else {
                        workers[op.srcNode][op.srcWorker].arrive(op);
                    }
                }
                case K_DONE -> {
                    // the completion is DMA-ed by the requester's NIC: it waits for the NIC's processing units
                    SimNic src = nics[op.srcNode];
                    double exec = Math.max(now, src.freeAt);
                    src.freeAt = exec + cost.nicCqeNs;
                    onCores(op.srcNode, cost.nicCqeNs);
                    long at = (long) Math.ceil(exec);
                    if (paths) op.mark(CriticalPath.REQUESTER_NIC_WAIT, at);
                    if (at > now) {
                        op.kind = K_REPLY;   // delivered as is when it fires
                        queue.push(op, at);
                    } else {
                        workers[op.srcNode][op.srcWorker].arrive(op);
                    }
                }
                case K_REPLY, K_TIMER -> workers[op.srcNode][op.srcWorker].arrive(op);
                case K_ATOMIC_WRITE -> {
                    SimNic nic = nics[op.node];
                    if (nic.pendingAtomic == op) finishAtomic(nic, op);
                    complete(op);
                }
                case K_RPC_ARRIVE -> workers[op.node][op.srcWorker % threads].arrive(op);
                case K_RUN -> workers[op.srcNode][op.srcWorker].onRun();
                default -> throw new IllegalStateException("unknown event kind " + op.kind);
            }
        }

        /**
         * {@code nic.on_cores}: that share of {@code ns} of NIC work on {@code node} also occupies one of its worker cores
         * (a soft NIC, a thread on the same cores), taken in turn; the core's clock moves on, its busy time does not
         * (it is not the worker's own work).
         */
        private void onCores(int node, double ns) {
            if (cost.nicOnCores == 0 || ns <= 0) return;
            SimWorker w = workers[node][nics[node].nextCore++ % threads];
            if (w.cpuAt < now) w.cpuAt = now;
            w.cpuAt += Math.round(cost.nicOnCores * ns);
        }

        private void executeAtNic(SimOp op) {
            RegisteredMemory m = memory[op.node];
            // simulated NIC hardware acts when the request arrives; unless it consumed the op, the verb's own
            // memory operation follows (torn too, under the fault: the action must not see the READ's end)
            if (op.nicAction != null && op.tornDone == 0 && !op.nicAction.atNic(op, m, now)) {
                complete(op);
                return;
            }
            if (op.verb == Verb.READ && faults.tornReads() && op.length > cost.tornLineBytes) {
                // a torn READ reaches memory piece by piece; the cursor lives in `tornDone` while it is in flight
                int done = op.tornDone;
                if (done == 0) tornReads++;
                int chunk = Math.min(cost.tornLineBytes, op.length - done);
                m.read(op.region, op.offset + done, op.data, done, chunk);
                done += chunk;
                if (done < op.length) {
                    op.tornDone = done;
                    queue.push(op, now + cost.tornLineGapNs);
                    return;
                }
                op.tornDone = 0;
                tornCheck = Bytes.ensure(tornCheck, op.length);
                m.read(op.region, op.offset, tornCheck, 0, op.length);
                if (!Arrays.equals(tornCheck, 0, op.length, op.data, 0, op.length)) tornObserved++;
            } else if (faults.incoherentAtomics() && (op.verb == Verb.CAS || op.verb == Verb.FAA)) {
                // read now, write after the gap: atomic with other NIC atomics (the atomic unit waits), not with CPUs
                SimNic nic = nics[op.node];
                if (nic.pendingAtomic != null) finishAtomic(nic, nic.pendingAtomic);   // its write is due (same ns)
                long old = m.getLongVolatile(op.region, op.offset);
                op.result = old;
                if (op.verb == Verb.FAA || old == op.compare) {
                    nic.pendingAtomic = op;
                    nic.pendingValue = op.verb == Verb.FAA ? old + op.value : op.value;
                    nic.pendingWriteAt = now + cost.atomicGapNs;
                    op.kind = K_ATOMIC_WRITE;
                    queue.push(op, nic.pendingWriteAt);
                    return;
                }
            } else {
                MemoryOps.execute(m, op);
            }
            complete(op);
        }

        /** An op executed at its responder: its completion travels back, or (unsignaled) it is simply done. */
        private void complete(SimOp op) {
            if (op.signaled) {
                boolean self = viaNic && op.node == op.srcNode;
                long back = self ? now + SimNic.loopbackOneWay(cost)
                        : now + Math.round(cost.oneWayNs + (op.verb == Verb.READ ? op.length / cost.linkBytesPerNs : 0));
                op.kind = K_DONE;
                if (paths) PathMarks.back(op, now, back, cost.oneWayNs, self);
                send(op, back, op.srcNode);
            } else if (op.srcNode == node) {
                op.landedOnOneThread();
            } else {
                landed(op);
            }
        }
    }
}
