package org.rccj.fabrics.sim;

import org.rccj.primitives.Bytes;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Counters;
import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Event;
import org.rccj.primitives.Fabric;
import org.rccj.fabrics.MemoryOps;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Deterministic discrete-event simulation of the whole cluster on the calling thread. Virtual time in ns.
 *
 * <p>Model: each worker is a simulated core with a clock ({@code cpuAt}); everything a worker does
 * (posting, polling, handlers, coroutine work) advances that clock by the profile's costs. Each node has
 * one NIC whose processing units serve everything the NIC does, in arrival order: requester work of
 * one-sided verbs (WQE fetch per doorbell, per WQE, completion DMA per signaled op), responder work per
 * verb, and two-sided messages sent and received; plus QP-context cache misses for RC (one-sided) work
 * and an egress link at the profile's bandwidth. Wire latency is the profile's one-way figure. One-sided ops touch the target's memory at
 * the instant the responder NIC executes them, so concurrent transactions interleave as they would on
 * the hardware. Ties are broken by posting order: the same inputs give the same run, bit for bit.
 */
public final class SimFabric implements Fabric {
    /**
     * Event kinds. A one-sided op reaches the target NIC (K_NIC_ARRIVE), which serves ops in arrival order
     * at its per-verb rate and executes it (K_NIC, at once when the NIC is idle); the completion comes back
     * (K_DONE). An RPC request or reply reaches the receiving NIC (K_MSG_REQUEST / K_MSG_REPLY), which
     * serves messages in arrival order at its message rate, then the receiving worker gets it
     * (K_RPC_ARRIVE / K_REPLY). NIC time is taken when an op arrives, in global time order, so an idle NIC
     * is never left waiting behind a reservation made by a worker whose clock ran ahead.
     */
    private static final byte K_NIC = 1, K_DONE = 2, K_RPC_ARRIVE = 3, K_REPLY = 4, K_TIMER = 5, K_RUN = 6,
            K_NIC_ARRIVE = 7, K_MSG_REQUEST = 8, K_MSG_REPLY = 9, K_ATOMIC_WRITE = 10;

    private final int nodes, threads;
    private final CostProfile cost;
    private final FaultSettings faults;
    private final RegisteredMemory[] memory;
    private final SimNic[] nics;
    private final SimWorker[][] workers;
    private final EventQueue queue = new EventQueue();
    private long now;
    private long events;
    private long tornReads, tornObserved;
    private long loopbackAtomics, atomicRaces;
    private byte[] tornCheck = new byte[64];
    /** NIC time of a QP-context miss per RC op side, averaged over the uniform access to all QPs. */
    private double qpMissNs;
    /** Expected latency an RC op pays for QP-context misses at its two ends (a PCIe round trip per miss). */
    private long qpMissDelayNs;
    /** local_access: network: ops and RPCs to the own node go through the NIC (loopback, no wire). */
    private boolean viaNic;
    /** CPU atomics go through the local NIC (profile: NIC atomics incoherent, and the run uses them). */
    private boolean loopback;
    /** The worker whose core is running (handlers and coroutines), for CPU atomics; null outside. */
    private SimWorker current;
    /** The CPU atomic being routed was posted by a coordinator (local shortcut): it completes later. */
    private boolean postedAtomic;

    private static final class RunEvent extends Event {
        final SimWorker w;
        boolean pending;
        RunEvent(SimWorker w) { this.w = w; kind = K_RUN; }
    }

    public SimFabric(int nodes, int threads, CostProfile cost, FaultSettings faults) {
        this.nodes = nodes;
        this.threads = threads;
        this.cost = cost;
        this.faults = faults;
        memory = new RegisteredMemory[nodes];
        nics = new SimNic[nodes];
        workers = new SimWorker[nodes][threads];
        // RC: a QP per (worker, remote node), counted per NIC as DrTM+H counts them (80 nodes x 12 workers per
        // NIC = 960 QPs); UD two-sided messages need one QP per worker and never miss
        qpContexts((long) threads * (nodes - 1));
        for (int n = 0; n < nodes; n++) {
            memory[n] = RegisteredMemory.direct(n);
            nics[n] = new SimNic();
            for (int t = 0; t < threads; t++) workers[n][t] = new SimWorker(n, t);
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
    public long loopbackAtomicCount() { return loopbackAtomics; }
    public long atomicRaces() { return atomicRaces; }

    /** Expected NIC time per RC op side spent on QP-context misses in this cluster (for reports). */
    public double qpMissNsPerOp() { return qpMissNs; }

    private final RegisteredMemory.CpuAtomics cpuAtomics = new RegisteredMemory.CpuAtomics() {
        @Override
        public long cas(RegisteredMemory m, int region, long off, long expect, long update) {
            enterCpuAtomic(m, region, off);
            return m.casDirect(region, off, expect, update);
        }

        @Override
        public long faa(RegisteredMemory m, int region, long off, long delta) {
            enterCpuAtomic(m, region, off);
            return m.faaDirect(region, off, delta);
        }
    };

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

    @Override public String name() { return "sim"; }
    @Override public boolean oneThread() { return true; }
    @Override public boolean virtualTime() { return true; }
    @Override public int nodes() { return nodes; }
    @Override public int threads() { return threads; }
    @Override public RegisteredMemory memory(int node) { return memory[node]; }
    @Override public Endpoint endpoint(int node, int worker) { return workers[node][worker]; }

    /** READs split by the torn-read fault, and how many of them saw memory change while in flight. */
    public long tornReads() { return tornReads; }
    public long tornReadsObserved() { return tornObserved; }

    /** Events processed so far (for simulator speed reports). */
    @Override public long events() { return events; }
    /** The virtual time reached so far, ns (read by a progress display on another thread: approximate). */
    @Override public long virtualNow() { return now; }

    @Override
    public void nicSend(int from, Op op, long at) {
        op.postedOnOneThread(from, 0);
        op.signaled = false;
        op.rang = false;
        op.fromNic = true;
        SimNic src = nics[from];
        op.kind = K_NIC_ARRIVE;
        op.result = 0;
        queue.push(op, src.leave(Math.max(at, now), op.length, false, cost));
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
        while (!queue.isEmpty()) {
            Event e = queue.pop();
            now = e.time;
            events++;
            dispatch(e);
        }
        for (int n = 0; n < nodes; n++) {
            for (int t = 0; t < threads; t++) {
                if (!hosts[n][t].finished()) {
                    throw new IllegalStateException("simulation stalled at " + now + " ns: worker " + n + "/" + t
                            + " has coroutines waiting for operations that will never complete (a lost wake-up)");
                }
            }
        }
    }

    private void dispatch(Event e) {
        switch (e.kind) {
            case K_NIC -> executeAtNic((Op) e);
            case K_NIC_ARRIVE -> {
                Op op = (Op) e;
                // requester work of the posting NIC (capacity: taken in arrival order, the op is not held)
                SimNic src = nics[op.srcNode];
                src.freeAt = Math.max(now, src.freeAt) + (op.rang ? cost.nicWqeFetchNs : 0) + cost.nicWqeNs + qpMissNs;
                onCores(op.srcNode, (op.rang ? cost.nicWqeFetchNs : 0) + cost.nicWqeNs + qpMissNs);
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
                long at = PathMarks.atResponder(op, now, qpMissDelayNs, (long) Math.ceil(exec));
                if (at > now) {
                    op.kind = K_NIC;
                    queue.push(op, at);
                } else {
                    executeAtNic(op);
                }
            }
            case K_MSG_REQUEST, K_MSG_REPLY -> {
                Op op = (Op) e;
                boolean request = e.kind == K_MSG_REQUEST;
                SimNic sender = nics[request ? op.srcNode : op.node];
                sender.freeAt = Math.max(now, sender.freeAt) + cost.nicSendNs;
                onCores(request ? op.srcNode : op.node, cost.nicSendNs);
                SimNic dst = nics[request ? op.node : op.srcNode];
                double exec = Math.max(now, dst.freeAt);
                double recv = Math.max(cost.nicRecvNs, (request ? op.length : op.replyLength) / cost.linkBytesPerNs);
                dst.freeAt = exec + recv;
                onCores(request ? op.node : op.srcNode, recv);
                long at = PathMarks.at(op, request ? CriticalPath.RESPONDER_NIC_WAIT : CriticalPath.REQUESTER_NIC_WAIT, (long) Math.ceil(exec));
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
                Op op = (Op) e;
                SimNic src = nics[op.srcNode];
                double exec = Math.max(now, src.freeAt);
                src.freeAt = exec + cost.nicCqeNs;
                onCores(op.srcNode, cost.nicCqeNs);
                long at = PathMarks.at(op, CriticalPath.REQUESTER_NIC_WAIT, (long) Math.ceil(exec));
                if (at > now) {
                    op.kind = K_REPLY;   // delivered as is when it fires
                    queue.push(op, at);
                } else {
                    workers[op.srcNode][op.srcWorker].arrive(op);
                }
            }
            case K_REPLY, K_TIMER -> {
                Op op = (Op) e;
                workers[op.srcNode][op.srcWorker].arrive(op);
            }
            case K_ATOMIC_WRITE -> {
                Op op = (Op) e;
                SimNic nic = nics[op.node];
                if (nic.pendingAtomic == op) finishAtomic(nic, op);
                complete(op);
            }
            case K_RPC_ARRIVE -> {
                Op op = (Op) e;
                workers[op.node][op.srcWorker % threads].arrive(op);
            }
            case K_RUN -> ((RunEvent) e).w.onRun();
            default -> throw new IllegalStateException("unknown event kind " + e.kind);
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

    private void executeAtNic(Op op) {
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
    private void complete(Op op) {
        if (op.signaled) {
            long back = viaNic && op.node == op.srcNode ? now + SimNic.loopbackOneWay(cost)
                    : now + Math.round(cost.oneWayNs + (op.verb == Verb.READ ? op.length / cost.linkBytesPerNs : 0));
            op.kind = K_DONE;
            queue.push(op, PathMarks.back(op, now, back, cost.oneWayNs, viaNic && op.node == op.srcNode));
        } else {
            op.landedOnOneThread();
        }
    }

    /** A simulated core: the endpoint of one worker. */
    private final class SimWorker implements Endpoint {
        final int node, worker;
        final Counters counters = new Counters();
        final RunEvent run;
        final ArrayDeque<Op> inbox = new ArrayDeque<>();
        final PassiveRpcs passive = new PassiveRpcs();
        /** Messages and completions still to handle in the current poll; coroutines still to run in the current pass. */
        int pollLeft, passLeft;
        WorkerHost host;
        long cpuAt;
        long busyNs;

        SimWorker(int node, int worker) {
            this.node = node;
            this.worker = worker;
            this.run = new RunEvent(this);
        }

        /**
         * An event for this worker fired. If its core is busy (or already has work queued), the event
         * waits in the worker's inbox; otherwise the worker handles it now and keeps going.
         */
        void arrive(Op op) {
            if (cpuAt > now || run.pending) {
                inbox.add(op);
                scheduleRun();
                return;
            }
            cpuAt = now;
            current = this;
            inbox.add(op);      // an idle core is its poller spinning: the next poll is now
            drive();
            current = null;
        }

        void onRun() {
            run.pending = false;
            if (cpuAt < now) cpuAt = now;
            current = this;
            drive();
            current = null;
        }

        private void handle(Op op) {
            op.mark(op.kind == K_RPC_ARRIVE ? CriticalPath.RESPONDER_POLL_WAIT : CriticalPath.INBOX_WAIT, cpuAt);
            if (op.kind == K_RPC_ARRIVE) {
                charge(cost.rpcDispatchNs, op, CriticalPath.RPC_DISPATCH);
                host.onRpc(op);
                return;
            }
            if (op.kind != K_TIMER && !op.fromNic) charge(cost.pollCqNs, op, CriticalPath.POLL_CPU);   // a NIC-generated op's completion rides on its command's
            if (op.kind != K_TIMER) passive.learn(op.node);
            op.landedOnOneThread();
            host.onComplete(op);
        }

        /**
         * The worker's event loop as the artifact's (core/rworker.cc:33-71, rworker.h:123-173, coroutine 0 the
         * poller): a poll takes every message and completion that has arrived by then and runs RPC handlers
         * inline; then every coroutine that was ready at the end of the poll runs once until it blocks (a pass);
         * then the next poll. A request that arrives during a pass waits for the pass to end. Goes on for as long
         * as this core's clock stays before the next event anywhere in the cluster plus the profile's run-ahead
         * bound; then it yields to the queue with a RUN event at its clock. Within the bound, this core's local
         * memory operations may be ordered before remote operations on the same node that are up to that much
         * earlier: a valid, deterministic interleaving, and far fewer events. The bound stays well below the wire
         * latency, so nothing this core sends can arrive anywhere before events already queued.
         */
        private void drive() {
            while (true) {
                if (pollLeft > 0) {
                    pollLeft--;
                    handle(inbox.poll());
                    if (pollLeft == 0) passLeft = host.readyCount();
                } else if (passLeft > 0) {
                    passLeft--;
                    charge(cost.coroutineSwitchNs);
                    if (!host.runOne()) passLeft = 0;
                } else if (!inbox.isEmpty()) {
                    pollLeft = inbox.size();            // a poll: what has arrived by now
                    continue;
                } else if (host.hasReady()) {
                    passLeft = host.readyCount();       // an empty poll, then the pass
                    continue;
                } else {
                    return;
                }
                if (queue.peekTime() + cost.runAheadNs <= cpuAt) {
                    if (pollLeft > 0 || passLeft > 0 || !inbox.isEmpty() || host.hasReady()) scheduleRun();
                    return;
                }
            }
        }

        void scheduleRun() {
            if (!run.pending) {
                run.pending = true;
                queue.push(run, Math.max(cpuAt, now));
            }
        }

        @Override public int node() { return node; }
        @Override public int worker() { return worker; }
        @Override public long now() { return Math.max(cpuAt, now); }
        @Override public Counters counters() { return counters; }
        @Override public long busyNanos() { return busyNs; }
        @Override public CostProfile profile() { return cost; }
        @Override public boolean passiveRpc() { return cost.passiveRpc; }

        @Override
        public void charge(long ns) {
            if (cpuAt < now) cpuAt = now;
            cpuAt += ns;
            busyNs += ns;
        }

        @Override public void compute(long ns) { charge(ns); }
        private void charge(long ns, Op op, int term) { charge(ns); op.mark(term, cpuAt); }     // and the op's critical path

        @Override public void post(Op op) { post1(op, true); }

        @Override
        public void post(Op[] ops, int n) {
            for (int i = 0; i < n; i++) post1(ops[i], i == 0);
        }

        private void post1(Op op, boolean ringDoorbell) {
            op.postedOnOneThread(node, worker);
            op.rang = ringDoorbell;
            boolean self = op.node == node;
            if (self && !viaNic) {
                local(op);
                return;
            }
            counters.count(op);
            SimNic src = nics[node];
            if (op.verb == Verb.RPC) {
                if (!op.signaled) passive.add(op);
                charge(cost.rpcSendNs, op, CriticalPath.REQUESTER_CPU);
                op.kind = K_MSG_REQUEST;
                queue.push(op, PathMarks.leave(op, src, cpuAt, op.length, self, cost, true));
                return;
            }
            if (op.fromNic) {
                op.rang = false;    // the requester NIC generated it: no doorbell, no WQE to post or fetch
            } else {
                if (ringDoorbell) {
                    counters.doorbells++;
                    charge(cost.doorbellNs);
                }
                charge(cost.postWqeNs, op, CriticalPath.REQUESTER_CPU);
            }
            op.kind = K_NIC_ARRIVE;
            op.result = 0;
            queue.push(op, PathMarks.leave(op, src, cpuAt, op.verb == Verb.WRITE ? op.length : 0, self, cost, true));
        }

        /** Local shortcut: a plain memory operation (one-sided) or a direct handler call (RPC). */
        private void local(Op op) {
            counters.local++;
            if (op.verb == Verb.RPC) {
                host.onRpc(op);     // replies through reply(), which completes it on this worker
                return;
            }
            charge(cost.localOpNs, op, CriticalPath.LOCAL_CPU);
            if ((op.verb == Verb.CAS || op.verb == Verb.FAA) && loopback) {
                // through the local NIC: executed now (ordered after a pending NIC atomic), completed after
                // the loopback latency
                postedAtomic = true;
                MemoryOps.executeOnCpu(memory[node], op);
                postedAtomic = false;
                if (op.signaled) {
                    op.kind = K_REPLY;
                    queue.push(op, PathMarks.at(op, CriticalPath.LOCAL_ATOMIC_LOOPBACK, cpuAt + cost.loopbackNs));
                } else {
                    op.landedOnOneThread();
                }
                return;
            }
            MemoryOps.executeOnCpu(memory[node], op);
            op.landedOnOneThread();
            if (op.signaled) host.onComplete(op);
        }

        @Override
        public void reply(Op call) {
            if (!call.signaled) {
                // passive RPC: no reply message; the sender learns it from its next signaled reply from here
                call.handled = true;
                if (call.srcNode == node && !viaNic) call.landedOnOneThread();
                return;
            }
            if (call.srcNode == node && !viaNic) {
                call.mark(CriticalPath.LOCAL_CPU, now());
                call.landedOnOneThread();
                if (call.srcWorker == worker) {
                    host.onComplete(call);
                } else {
                    call.kind = K_REPLY;
                    queue.push(call, now());
                }
                return;
            }
            call.mark(CriticalPath.HANDLER, now());
            charge(cost.rpcSendNs, call, CriticalPath.REPLY_CPU);
            call.kind = K_MSG_REPLY;
            queue.push(call, PathMarks.leave(call, nics[node], cpuAt, call.replyLength, call.srcNode == node, cost, false));
        }

        @Override
        public void timer(Op op, long time) {
            op.postedAsTimer(node, worker);
            op.kind = K_TIMER;
            queue.push(op, Math.max(time, now()));
        }
    }
}
