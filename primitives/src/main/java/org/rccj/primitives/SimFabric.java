package org.rccj.primitives;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Deterministic discrete-event simulation of the whole cluster on the calling thread. Virtual time in ns.
 *
 * <p>Model: each worker is a simulated core with a clock ({@code cpuAt}); everything a worker does
 * (posting, polling, handlers, coroutine work) advances that clock by the profile's costs. Each node has
 * a NIC with an egress queue and a responder queue, served at the profile's per-verb rates and link
 * bandwidth; wire latency is the profile's one-way figure. One-sided ops touch the target's memory at
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
            K_NIC_ARRIVE = 7, K_MSG_REQUEST = 8, K_MSG_REPLY = 9;

    private final int nodes, threads;
    private final CostProfile cost;
    private final FaultSettings faults;
    private final RegisteredMemory[] memory;
    private final Nic[] nics;
    private final SimWorker[][] workers;
    private final EventQueue queue = new EventQueue();
    private long now;
    private long events;
    private long tornReads, tornObserved;
    private byte[] tornCheck = new byte[64];

    private static final class Nic {
        /** Link serialization of outgoing payload bytes. */
        double egressFreeAt;
        /** One-sided ops served as responder. */
        double responderFreeAt;
        /** Two-sided messages (requests and replies) received. */
        double messagesFreeAt;
    }

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
        nics = new Nic[nodes];
        workers = new SimWorker[nodes][threads];
        for (int n = 0; n < nodes; n++) {
            memory[n] = new RegisteredMemory(n);
            nics[n] = new Nic();
            for (int t = 0; t < threads; t++) workers[n][t] = new SimWorker(n, t);
        }
    }

    @Override public String name() { return "sim"; }
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
                Nic dst = nics[op.node];
                double exec = Math.max(now, dst.responderFreeAt);
                dst.responderFreeAt = exec + cost.nicServiceNs(op);
                long at = (long) Math.ceil(exec);
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
                Nic dst = nics[request ? op.node : op.srcNode];
                double exec = Math.max(now, dst.messagesFreeAt);
                dst.messagesFreeAt = exec + cost.nicMessageNs;
                long at = (long) Math.ceil(exec);
                op.kind = request ? K_RPC_ARRIVE : K_REPLY;
                if (at > now) {
                    queue.push(op, at);
                } else if (request) {
                    workers[op.node][op.srcWorker % threads].arrive(op);
                } else {
                    workers[op.srcNode][op.srcWorker].arrive(op);
                }
            }
            case K_DONE, K_REPLY, K_TIMER -> {
                Op op = (Op) e;
                workers[op.srcNode][op.srcWorker].arrive(op);
            }
            case K_RPC_ARRIVE -> {
                Op op = (Op) e;
                workers[op.node][op.srcWorker % threads].arrive(op);
            }
            case K_RUN -> ((RunEvent) e).w.onRun();
            default -> throw new IllegalStateException("unknown event kind " + e.kind);
        }
    }

    private void executeAtNic(Op op) {
        RegisteredMemory m = memory[op.node];
        if (op.verb == Verb.READ && faults.tornReads() && op.length > cost.tornLineBytes) {
            // a torn READ reaches memory piece by piece; the cursor lives in `result` while it is in flight
            int done = (int) op.result;
            if (done == 0) tornReads++;
            int chunk = Math.min(cost.tornLineBytes, op.length - done);
            m.read(op.region, op.offset + done, op.data, done, chunk);
            done += chunk;
            if (done < op.length) {
                op.result = done;
                queue.push(op, now + cost.tornLineGapNs);
                return;
            }
            tornCheck = Bytes.ensure(tornCheck, op.length);
            m.read(op.region, op.offset, tornCheck, 0, op.length);
            if (!Arrays.equals(tornCheck, 0, op.length, op.data, 0, op.length)) tornObserved++;
        } else {
            MemoryOps.execute(m, op);
        }
        if (op.signaled) {
            long back = now + Math.round(cost.oneWayNs + (op.verb == Verb.READ ? op.length / cost.linkBytesPerNs : 0));
            op.kind = K_DONE;
            queue.push(op, back);
        } else {
            op.inFlight = false;
        }
    }

    /** A simulated core: the endpoint of one worker. */
    private final class SimWorker implements Endpoint {
        final int node, worker;
        final Counters counters = new Counters();
        final RunEvent run;
        final ArrayDeque<Op> inbox = new ArrayDeque<>();
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
            handle(op);
            drive();
        }

        void onRun() {
            run.pending = false;
            if (cpuAt < now) cpuAt = now;
            drive();
        }

        private void handle(Op op) {
            if (op.kind == K_RPC_ARRIVE) {
                charge(cost.rpcDispatchNs);
                host.onRpc(op);
                return;
            }
            if (op.kind != K_TIMER) charge(cost.pollCqNs);
            op.inFlight = false;
            host.onComplete(op);
        }

        /**
         * Works through the inbox and the ready coroutines for as long as this core's clock stays before
         * the next event anywhere in the cluster plus the profile's run-ahead bound; then it yields to the
         * queue with a RUN event at its clock. Within the bound, this core's local memory operations may be
         * ordered before remote operations on the same node that are up to that much earlier: a valid,
         * deterministic interleaving, and far fewer events. The bound stays well below the wire latency,
         * so nothing this core sends can arrive anywhere before events already queued.
         */
        private void drive() {
            while (true) {
                Op m = inbox.poll();
                if (m != null) {
                    handle(m);
                } else if (host.hasReady()) {
                    charge(cost.coroutineSwitchNs);
                    host.runOne();
                } else {
                    return;
                }
                if (queue.peekTime() + cost.runAheadNs <= cpuAt) {
                    if (!inbox.isEmpty() || host.hasReady()) scheduleRun();
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

        @Override
        public void charge(long ns) {
            if (cpuAt < now) cpuAt = now;
            cpuAt += ns;
            busyNs += ns;
        }

        @Override public void compute(long ns) { charge(ns); }

        @Override public void post(Op op) { post1(op, true); }

        @Override
        public void post(Op[] ops, int n) {
            for (int i = 0; i < n; i++) post1(ops[i], i == 0);
        }

        private void post1(Op op, boolean ringDoorbell) {
            op.srcNode = node;
            op.srcWorker = worker;
            op.inFlight = true;
            if (op.node == node) {
                local(op);
                return;
            }
            counters.count(op);
            Nic src = nics[node];
            if (op.verb == Verb.RPC) {
                charge(cost.rpcSendNs);
                double start = Math.max(cpuAt, src.egressFreeAt);
                src.egressFreeAt = start + op.length / cost.linkBytesPerNs;
                op.kind = K_MSG_REQUEST;
                queue.push(op, Math.round(src.egressFreeAt) + cost.oneWayNs + cost.rpcReceiveNs);
                return;
            }
            if (ringDoorbell) {
                counters.doorbells++;
                charge(cost.doorbellNs);
            }
            charge(cost.postWqeNs);
            double start = Math.max(cpuAt, src.egressFreeAt);
            src.egressFreeAt = start + (op.verb == Verb.WRITE ? op.length / cost.linkBytesPerNs : 0);
            op.kind = K_NIC_ARRIVE;
            op.result = 0;
            queue.push(op, Math.round(src.egressFreeAt) + cost.oneWayNs);
        }

        /** Local shortcut: a plain memory operation (one-sided) or a direct handler call (RPC). */
        private void local(Op op) {
            counters.local++;
            if (op.verb == Verb.RPC) {
                host.onRpc(op);     // replies through reply(), which completes it on this worker
                return;
            }
            charge(cost.localOpNs);
            MemoryOps.execute(memory[node], op);
            op.inFlight = false;
            if (op.signaled) host.onComplete(op);
        }

        @Override
        public void reply(Op call) {
            if (call.srcNode == node) {
                call.inFlight = false;
                if (call.srcWorker == worker) {
                    host.onComplete(call);
                } else {
                    call.kind = K_REPLY;
                    queue.push(call, now());
                }
                return;
            }
            charge(cost.rpcSendNs);
            Nic src = nics[node];
            double start = Math.max(cpuAt, src.egressFreeAt);
            src.egressFreeAt = start + call.replyLength / cost.linkBytesPerNs;
            call.kind = K_MSG_REPLY;
            queue.push(call, Math.round(src.egressFreeAt) + cost.oneWayNs + cost.rpcReceiveNs);
        }

        @Override
        public void timer(Op op, long time) {
            op.verb = Verb.TIMER;
            op.srcNode = node;
            op.srcWorker = worker;
            op.inFlight = true;
            op.kind = K_TIMER;
            queue.push(op, Math.max(time, now()));
        }
    }
}
