package org.rccj.fabrics.sim;

import java.util.ArrayDeque;
import org.rccj.fabrics.MemoryOps;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Counters;
import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;
import org.rccj.primitives.Verb;
import org.rccj.primitives.WorkerHost;

/**
 * A simulated core: the endpoint of one worker, on its node's logical process ({@link LogicalProcess}): its clock,
 * inbox and coroutines are touched by that process's thread only.
 */
final class SimWorker implements Endpoint {
    private final SimFabric f;
    private final LogicalProcess lp;
    private final CostProfile cost;
    private final EventQueue queue;
    final int node, worker;
    final Counters counters = new Counters();
    /** This worker's RUN event (kind K_RUN, from this worker: no verb), and whether it is queued. */
    private final SimOp run;
    private boolean runPending;
    /** sim.critical_path: mark the ops' paths. */
    private final boolean paths;
    final ArrayDeque<SimOp> inbox = new ArrayDeque<>();
    final PassiveRpcs passive = new PassiveRpcs();
    /** Messages and completions still to handle in the current poll; coroutines still to run in the current pass. */
    int pollLeft, passLeft;
    /** Two-sided messages that came over the network in the current poll (they consumed UD receive buffers). */
    private int polledUd;
    WorkerHost host;
    long cpuAt;
    long busyNs;

    SimWorker(SimFabric f, LogicalProcess lp, int worker) {
        this.f = f;
        this.lp = lp;
        this.cost = f.cost;
        this.queue = lp.queue;
        this.node = lp.node;
        this.worker = worker;
        this.paths = f.paths;
        this.run = new SimOp(false);
        run.kind = SimFabric.K_RUN;
        run.srcNode = node;
        run.srcWorker = worker;
    }

    /** A sim op: the request and the engine's state for it ({@link SimOp}). */
    @Override public Op newOp() { return new SimOp(paths); }

    /**
     * An event for this worker fired. If its core is busy (or already has work queued), the event
     * waits in the worker's inbox; otherwise the worker handles it lp.now and keeps going.
     */
    void arrive(SimOp op) {
        if (cpuAt > lp.now || runPending) {
            inbox.add(op);
            scheduleRun();
            return;
        }
        cpuAt = lp.now;
        lp.current = this;
        inbox.add(op);      // an idle core is its poller spinning: the next poll is lp.now
        drive();
        lp.current = null;
    }

    void onRun() {
        runPending = false;
        if (cpuAt < lp.now) cpuAt = lp.now;
        lp.current = this;
        drive();
        lp.current = null;
    }

    private void handle(SimOp op) {
        if (paths) op.mark(op.kind == SimFabric.K_RPC_ARRIVE ? CriticalPath.RESPONDER_POLL_WAIT : CriticalPath.INBOX_WAIT, cpuAt);
        if (op.kind == SimFabric.K_RPC_ARRIVE) {
            polledUd++;
            charge(cost.rpcDispatchNs, op, CriticalPath.RPC_DISPATCH);
            host.onRpc(op);
            return;
        }
        if (op.kind != SimFabric.K_TIMER && !op.fromNic) charge(cost.pollCqNs, op, CriticalPath.POLL_CPU);   // a NIC-generated op's completion rides on its command's
        if (op.kind != SimFabric.K_TIMER) passive.learn(op.node);
        if (op.kind != SimFabric.K_TIMER && op.verb == Verb.RPC && (op.node != node || f.viaNic)) polledUd++;   // a reply message
        op.landedOnOneThread();
        host.onComplete(op);
    }

    /**
     * The worker's event loop as the artifact's (core/rworker.cc:33-71, rworker.h:123-173, coroutine 0 the
     * poller): a poll takes every message and completion that has arrived by then and runs RPC handlers
     * inline; then every coroutine that was ready at the end of the poll runs once until it blocks (a pass);
     * then the next poll. A request that arrives during a pass waits for the pass to end. Goes on for as long
     * as this core's clock stays before the next event of its own node, or the window's end if that is earlier,
     * plus the profile's run-ahead bound (decision 0146; it was the next event anywhere in the cluster); then it
     * yields to the queue with a RUN event at its clock. Within the bound, this core's local memory operations
     * may be ordered before remote operations on the same node that are up to that much earlier: a valid,
     * deterministic interleaving, and far fewer events. The bound stays below the wire latency (the window's
     * length), so nothing this core sends can reach another node inside the window, and below half the
     * loopback, so nothing it sends through its own NIC lands before events already queued here.
     */
    private void drive() {
        while (true) {
            if (pollLeft > 0) {
                pollLeft--;
                handle(inbox.poll());
                if (pollLeft == 0) {
                    chargePolled();
                    passLeft = host.readyCount();
                }
            } else if (passLeft > 0) {
                passLeft--;
                charge(cost.coroutineSwitchNs);
                if (!host.runOne()) passLeft = 0;
            } else if (!inbox.isEmpty()) {
                pollLeft = inbox.size();            // a poll: what has arrived by lp.now
                chargePass();
                continue;
            } else if (host.hasReady()) {
                passLeft = host.readyCount();       // an empty poll, then the pass
                chargePass();
                continue;
            } else {
                return;
            }
            if (Math.min(queue.peekTime(), lp.windowEnd) + cost.runAheadNs <= cpuAt) {
                if (pollLeft > 0 || passLeft > 0 || !inbox.isEmpty() || host.hasReady()) scheduleRun();
                return;
            }
        }
    }

    /** A poll's own work (the artifact's events_handler pass, profile framework.*; nothing in a lean profile). */
    private void chargePass() {
        long ns = host.passNs();
        if (ns > 0) charge(ns);
    }

    /** The end of a poll's own work: the receive buffers its messages consumed (profile framework.recv_*). */
    private void chargePolled() {
        int n = polledUd;
        polledUd = 0;
        long ns = host.polledNs(n);
        if (ns > 0) charge(ns);
    }

    void scheduleRun() {
        if (!runPending) {
            runPending = true;
            queue.push(run, Math.max(cpuAt, lp.now));
        }
    }

    @Override public int node() { return node; }
    @Override public int worker() { return worker; }
    @Override public long now() { return Math.max(cpuAt, lp.now); }
    @Override public Counters counters() { return counters; }
    @Override public long busyNanos() { return busyNs; }
    @Override public CostProfile profile() { return cost; }
    @Override public boolean passiveRpc() { return cost.passiveRpc; }

    @Override
    public void charge(long ns) {
        if (cpuAt < lp.now) cpuAt = lp.now;
        cpuAt += ns;
        busyNs += ns;
    }

    @Override public void compute(long ns) { charge(ns); }
    /** {@link #charge(long)}, the stretch of {@code op}'s critical path until the core's clock then being {@code term}. */
    private void charge(long ns, SimOp op, CriticalPath term) {
        charge(ns);
        if (paths) op.mark(term, cpuAt);
    }

    @Override public void post(Op op) { post1((SimOp) op, true); }

    @Override
    public void post(Op[] ops, int n) {
        for (int i = 0; i < n; i++) post1((SimOp) ops[i], i == 0);
    }

    /**
     * When a request or reply leaving this node's NIC at the core's clock with {@code bytes} on the link reaches the
     * other NIC (its UD receive path included for an RPC message), with its path's marks when traced.
     */
    private long leave(SimOp op, int bytes, boolean self, boolean request) {
        long receive = op.verb == Verb.RPC ? cost.rpcReceiveNs : 0;
        long arrive = f.nics[node].leave(cpuAt, bytes, self, cost) + receive;
        if (paths) PathMarks.leg(op, arrive, receive, self, cost.oneWayNs, request);
        return arrive;
    }

    private void post1(SimOp op, boolean ringDoorbell) {
        op.postedOnOneThread(node, worker);
        op.rang = ringDoorbell;
        boolean self = op.node == node;
        if (self && !f.viaNic) {
            local(op);
            return;
        }
        counters.count(op);
        if (op.verb == Verb.RPC) {
            if (!op.signaled) passive.add(op);
            charge(cost.rpcSendNs, op, CriticalPath.REQUESTER_CPU);
            op.kind = SimFabric.K_MSG_REQUEST;
            lp.send(op, leave(op, op.length, self, true), op.node);
            lp.sendWork(lp.now);
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
        op.kind = SimFabric.K_NIC_ARRIVE;
        op.result = 0;
        lp.send(op, leave(op, op.verb == Verb.WRITE ? op.length : 0, self, true), op.node);
        lp.requesterWork(op, lp.now);
    }

    /** Local shortcut: a plain memory operation (one-sided) or a direct handler call (RPC). */
    private void local(SimOp op) {
        counters.local++;
        if (op.verb == Verb.RPC) {
            host.onRpc(op);     // replies through reply(), which completes it on this worker
            return;
        }
        charge(cost.localOpNs, op, CriticalPath.LOCAL_CPU);
        if ((op.verb == Verb.CAS || op.verb == Verb.FAA) && f.loopback) {
            // through the local NIC: executed now (ordered after a pending NIC atomic), completed after
            // the loopback latency
            lp.postedAtomic = true;
            MemoryOps.executeOnCpu(f.memory[node], op);
            lp.postedAtomic = false;
            if (op.signaled) {
                op.kind = SimFabric.K_REPLY;
                long at = cpuAt + cost.loopbackNs;
                if (paths) op.mark(CriticalPath.LOCAL_ATOMIC_LOOPBACK, at);
                queue.push(op, at);
            } else {
                op.landedOnOneThread();
            }
            return;
        }
        MemoryOps.executeOnCpu(f.memory[node], op);
        op.landedOnOneThread();
        if (op.signaled) host.onComplete(op);
    }

    @Override
    public void reply(Op reply) {
        SimOp call = (SimOp) reply;
        if (!call.signaled) {
            // passive RPC: no reply message; the sender learns it from its next signaled reply from here (another
            // node's sender from the window's end on: any completion it gets later than this was sent after it)
            if (call.srcNode == node) call.handled = true; else lp.handled(call);
            if (call.srcNode == node && !f.viaNic) call.landedOnOneThread();
            return;
        }
        if (call.srcNode == node && !f.viaNic) {
            if (paths) call.mark(CriticalPath.LOCAL_CPU, now());
            call.landedOnOneThread();
            if (call.srcWorker == worker) {
                host.onComplete(call);
            } else {
                call.kind = SimFabric.K_REPLY;
                queue.push(call, now());
            }
            return;
        }
        if (paths) call.mark(CriticalPath.HANDLER, now());
        charge(cost.rpcSendNs, call, CriticalPath.REPLY_CPU);
        call.kind = SimFabric.K_MSG_REPLY;
        lp.send(call, leave(call, call.replyLength, call.srcNode == node, false), call.srcNode);
        lp.sendWork(lp.now);
    }

    @Override
    public void timer(Op timer, long time) {
        SimOp op = (SimOp) timer;
        op.postedAsTimer(node, worker);
        op.kind = SimFabric.K_TIMER;
        queue.push(op, Math.max(time, now()));
    }
}
