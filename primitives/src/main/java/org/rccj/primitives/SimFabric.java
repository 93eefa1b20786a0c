package org.rccj.primitives;

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
    private static final byte K_NIC = 1, K_DONE = 2, K_RPC_ARRIVE = 3, K_REPLY = 4, K_TIMER = 5, K_RUN = 6;

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
    private boolean pollBeforeResume;

    private static final class Nic {
        double egressFreeAt, responderFreeAt;
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

    /**
     * From now on, completions and RPCs that reach a busy worker are queued on the worker and handled, in arrival
     * order, before its next coroutine runs (off by default: such events are re-queued at the time the worker
     * becomes free, behind the worker's next coroutine run).
     */
    @Override public void pollBeforeEveryResume() { pollBeforeResume = true; }

    /** Events processed so far (for simulator speed reports). */
    public long events() { return events; }




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
            case K_DONE, K_REPLY, K_TIMER -> {
                Op op = (Op) e;
                SimWorker w = workers[op.srcNode][op.srcWorker];
                if (w.deferIfBusy(e)) return;
                w.handle(e);
            }
            case K_RPC_ARRIVE -> {
                Op op = (Op) e;
                SimWorker w = workers[op.node][op.srcWorker % threads];
                if (w.deferIfBusy(e)) return;
                w.handle(e);
            }
            case K_RUN -> {
                RunEvent r = (RunEvent) e;
                SimWorker w = r.w;
                if (w.deferIfBusy(e)) return;
                r.pending = false;
                if (w.handleDeferred()) {
                    // the completions were polled first; the next coroutine runs once that work is done
                    w.scheduleRunIfReady();
                    return;
                }
                if (w.host.hasReady()) {
                    w.charge(cost.coroutineSwitchNs);
                    w.host.runOne();
                }
                w.scheduleRunIfReady();
            }
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
            if (!java.util.Arrays.equals(tornCheck, 0, op.length, op.data, 0, op.length)) tornObserved++;
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
        WorkerHost host;
        long cpuAt;
        long busyNs;
        /** With {@link #pollBeforeResume}: completions and RPCs that arrived while busy, in arrival order. */
        final java.util.ArrayDeque<Event> deferred = new java.util.ArrayDeque<>();

        SimWorker(int node, int worker) {
            this.node = node;
            this.worker = worker;
            this.run = new RunEvent(this);
        }

        /** The worker's core is busy past the event's time: the event waits for it. */
        boolean deferIfBusy(Event e) {
            if (cpuAt > now) {
                if (pollBeforeResume && e.kind != K_RUN) {
                    deferred.add(e);
                    scheduleRun();
                } else {
                    queue.push(e, cpuAt);
                }
                return true;
            }
            cpuAt = now;
            return false;
        }

        /** A completion, reply, timer or RPC arrival for this worker, now that its core is free. */
        void handle(Event e) {
            Op op = (Op) e;
            if (e.kind == K_RPC_ARRIVE) {
                charge(cost.rpcDispatchNs);
                host.onRpc(op);
            } else {
                if (e.kind != K_TIMER) charge(cost.pollCqNs);
                op.inFlight = false;
                host.onComplete(op);
            }
            scheduleRunIfReady();
        }

        /** Handles the events deferred while busy; false if there were none. */
        boolean handleDeferred() {
            if (deferred.isEmpty()) return false;
            Event e;
            while ((e = deferred.poll()) != null) handle(e);
            return true;
        }

        void scheduleRun() {
            if (!run.pending) {
                run.pending = true;
                queue.push(run, Math.max(cpuAt, now));
            }
        }

        void scheduleRunIfReady() {
            if (host.hasReady()) scheduleRun();
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
                src.egressFreeAt = start + cost.nicRpcNs + op.length / cost.linkBytesPerNs;
                op.kind = K_RPC_ARRIVE;
                queue.push(op, Math.round(src.egressFreeAt) + cost.oneWayNs);
                return;
            }
            if (ringDoorbell) {
                counters.doorbells++;
                charge(cost.doorbellNs);
            }
            charge(cost.postWqeNs);
            double start = Math.max(cpuAt, src.egressFreeAt);
            src.egressFreeAt = start + (op.verb == Verb.WRITE ? op.length / cost.linkBytesPerNs : 1.0);
            Nic dst = nics[op.node];
            double exec = Math.max(src.egressFreeAt + cost.oneWayNs, dst.responderFreeAt);
            dst.responderFreeAt = exec + cost.nicServiceNs(op);
            op.kind = K_NIC;
            op.result = 0;
            queue.push(op, Math.round(exec));
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
            src.egressFreeAt = start + cost.nicRpcNs + call.replyLength / cost.linkBytesPerNs;
            call.kind = K_REPLY;
            queue.push(call, Math.round(src.egressFreeAt) + cost.oneWayNs);
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
