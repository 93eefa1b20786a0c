package org.rccj.fabrics.sim;

import static org.rccj.fabrics.sim.SimFabric.*;

import java.util.Arrays;
import org.rccj.fabrics.MemoryOps;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.Verb;

/**
 * A logical process: one node's events, clock and counters, and what it sends to other nodes until the window's
 * end. Inside a window only the thread that runs it touches it (and its node's NIC, memory and workers).
 */
final class LogicalProcess {
    private final SimFabric f;
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
     * What this node tells other nodes, for two windows in turn (the one being run and the one being merged):
     * {@code boxes[set]}; {@code marks[set][receiver * nodes + node]} is set when this node's box holds something for
     * the receiver, so a receiver's merge reads one row (see {@link WindowEngine}).
     */
    Outbox[] boxes;
    byte[][] marks;
    /** Which of the two sets of outboxes this window fills; the smallest time sent in it. */
    int parity;
    long sentMin = Long.MAX_VALUE;

    LogicalProcess(SimFabric f, int node) {
        this.f = f;
        this.node = node;
    }

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
        tell(e, Outbox.EVENT, to);
    }

    /** An unsignaled op of another node executed here: its pool sees it free from the window's end (decision 0146). */
    void landed(SimOp op) { tell(op, Outbox.LANDED, op.srcNode); }

    /** A passive RPC of another node handled here: its sender sees it from the window's end (decision 0146). */
    void handled(SimOp op) { tell(op, Outbox.HANDLED, op.srcNode); }

    /** Into this window's outbox for node {@code to}, marked for the receiver's merge. */
    private void tell(SimOp op, byte kind, int to) {
        if (boxes[parity].add(op, kind, to)) marks[parity][to * f.nodes + node] = 1;
    }

    /** Takes in what the other nodes sent here in set {@code p}, by sending node in index order. */
    void merge(LogicalProcess[] lps, int p) {
        byte[] m = marks[p];
        for (int i = 0, row = node * lps.length; i < lps.length; i++) {
            if (m[row + i] == 0) continue;
            m[row + i] = 0;
            lps[i].boxes[p].drainInto(this);
        }
    }

    /**
     * The requester NIC's work for a one-sided op leaving at {@code at} (WQE fetch per doorbell, per WQE, its
     * QP-context misses): capacity taken in the order ops leave, the op is not held (decision 0146).
     */
    void requesterWork(SimOp op, long at) { nicWork(at, (op.rang ? f.cost.nicWqeFetchNs : 0) + f.cost.nicWqeNs + f.qpMissNs); }

    /** The sending NIC's work for a two-sided message leaving at {@code at} (decision 0146). */
    void sendWork(long at) { nicWork(at, f.cost.nicSendNs); }

    /** {@code work} ns of this node's NIC, taken from {@code at} in the order asked (and its nic.on_cores share). */
    private void nicWork(long at, double work) {
        SimNic nic = f.nics[node];
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
    void enterCpuAtomic(RegisteredMemory m, int region, long off) {
        SimWorker w = current;
        if (w == null) return;     // loading, checking: not part of the simulated run
        SimNic nic = f.nics[m.node()];
        Op p = nic.pendingAtomic;
        if (!f.loopback) {
            if (p != null && p.region == region && p.offset == off) atomicRaces++;
            return;
        }
        loopbackAtomics++;
        w.charge(f.cost.doorbellNs + f.cost.postWqeNs);
        if (p != null) {
            if (nic.pendingWriteAt > w.cpuAt) w.charge(nic.pendingWriteAt - w.cpuAt);
            finishAtomic(nic, p);
        }
        double exec = Math.max(Math.max(now, w.cpuAt), nic.freeAt);
        nic.freeAt = exec + f.cost.nicWqeFetchNs + f.cost.nicWqeNs + f.cost.nicAtomicNs + f.cost.nicCqeNs;
        // a handler needs the result before it can go on: its core waits; a coordinator's posted atomic
        // completes later like any op (its coroutine waits, the core does not)
        if (!postedAtomic) w.charge(f.cost.loopbackNs + f.cost.pollCqNs);
        if (nic.atomicFreeAt < w.cpuAt) nic.atomicFreeAt = w.cpuAt;
    }

    /** Writes a pending NIC atomic's value (faults.incoherent_atomics); its completion follows its event. */
    private void finishAtomic(SimNic nic, Op p) {
        f.memory[p.node].putLongVolatile(p.region, p.offset, nic.pendingValue);
        nic.pendingAtomic = null;
    }

    private void dispatch(SimOp op) {
        switch (op.kind) {
            case K_NIC -> executeAtNic(op);
            case K_NIC_ARRIVE -> {
                // the requester NIC's work was taken when the op left (requesterWork)
                SimNic dst = f.nics[op.node];
                double exec = Math.max(now + f.qpMissDelayNs, dst.freeAt);
                if (f.faults.incoherentAtomics()) {
                    // the NIC keeps its own ops in order around an atomic (reserved in arrival order from its
                    // read to its write): the fault breaks atomicity with CPU atomics only
                    exec = Math.max(exec, dst.atomicFreeAt);
                    if (op.verb == Verb.CAS || op.verb == Verb.FAA) dst.atomicFreeAt = (long) Math.ceil(exec) + f.cost.atomicGapNs + 1;
                }
                double service = f.cost.nicServiceNs(op);
                dst.freeAt = exec + service + f.qpMissNs;     // summed in this order: the same doubles as ever
                onCores(op.node, service + f.qpMissNs);
                long at = (long) Math.ceil(exec);
                if (f.paths) PathMarks.atResponder(op, now, f.qpMissDelayNs, at);
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
                SimNic dst = f.nics[request ? op.node : op.srcNode];
                double exec = Math.max(now, dst.freeAt);
                double recv = Math.max(f.cost.nicRecvNs, (request ? op.length : op.replyLength) / f.cost.linkBytesPerNs);
                dst.freeAt = exec + recv;
                onCores(request ? op.node : op.srcNode, recv);
                long at = (long) Math.ceil(exec);
                if (f.paths) op.mark(request ? CriticalPath.RESPONDER_NIC_WAIT : CriticalPath.REQUESTER_NIC_WAIT, at);
                op.kind = request ? K_RPC_ARRIVE : K_REPLY;
                if (at > now) {
                    queue.push(op, at);
                } else if (request) {
                    f.workers[op.node][op.srcWorker % f.threads].arrive(op);
                } else {
                    f.workers[op.srcNode][op.srcWorker].arrive(op);
                }
            }
            case K_DONE -> {
                // the completion is DMA-ed by the requester's NIC: it waits for the NIC's processing units
                SimNic src = f.nics[op.srcNode];
                double exec = Math.max(now, src.freeAt);
                src.freeAt = exec + f.cost.nicCqeNs;
                onCores(op.srcNode, f.cost.nicCqeNs);
                long at = (long) Math.ceil(exec);
                if (f.paths) op.mark(CriticalPath.REQUESTER_NIC_WAIT, at);
                if (at > now) {
                    op.kind = K_REPLY;   // delivered as is when it fires
                    queue.push(op, at);
                } else {
                    f.workers[op.srcNode][op.srcWorker].arrive(op);
                }
            }
            case K_REPLY, K_TIMER -> f.workers[op.srcNode][op.srcWorker].arrive(op);
            case K_ATOMIC_WRITE -> {
                SimNic nic = f.nics[op.node];
                if (nic.pendingAtomic == op) finishAtomic(nic, op);
                complete(op);
            }
            case K_RPC_ARRIVE -> f.workers[op.node][op.srcWorker % f.threads].arrive(op);
            case K_RUN -> f.workers[op.srcNode][op.srcWorker].onRun();
            default -> throw new IllegalStateException("unknown event kind " + op.kind);
        }
    }

    /**
     * {@code nic.on_cores}: that share of {@code ns} of NIC work on {@code node} also occupies one of its worker cores
     * (a soft NIC, a thread on the same cores), taken in turn; the core's clock moves on, its busy time does not
     * (it is not the worker's own work).
     */
    private void onCores(int node, double ns) {
        if (f.cost.nicOnCores == 0 || ns <= 0) return;
        SimWorker w = f.workers[node][f.nics[node].nextCore++ % f.threads];
        if (w.cpuAt < now) w.cpuAt = now;
        w.cpuAt += Math.round(f.cost.nicOnCores * ns);
    }

    private void executeAtNic(SimOp op) {
        RegisteredMemory m = f.memory[op.node];
        // simulated NIC hardware acts when the request arrives; unless it consumed the op, the verb's own
        // memory operation follows (torn too, under the fault: the action must not see the READ's end)
        if (op.nicAction != null && op.tornDone == 0 && !op.nicAction.atNic(op, m, now)) {
            complete(op);
            return;
        }
        if (op.verb == Verb.READ && f.faults.tornReads() && op.length > f.cost.tornLineBytes) {
            // a torn READ reaches memory piece by piece; the cursor lives in `tornDone` while it is in flight
            int done = op.tornDone;
            if (done == 0) tornReads++;
            int chunk = Math.min(f.cost.tornLineBytes, op.length - done);
            m.read(op.region, op.offset + done, op.data, done, chunk);
            done += chunk;
            if (done < op.length) {
                op.tornDone = done;
                queue.push(op, now + f.cost.tornLineGapNs);
                return;
            }
            op.tornDone = 0;
            tornCheck = Bytes.ensure(tornCheck, op.length);
            m.read(op.region, op.offset, tornCheck, 0, op.length);
            if (!Arrays.equals(tornCheck, 0, op.length, op.data, 0, op.length)) tornObserved++;
        } else if (f.faults.incoherentAtomics() && (op.verb == Verb.CAS || op.verb == Verb.FAA)) {
            // read now, write after the gap: atomic with other NIC atomics (the atomic unit waits), not with CPUs
            SimNic nic = f.nics[op.node];
            if (nic.pendingAtomic != null) finishAtomic(nic, nic.pendingAtomic);   // its write is due (same ns)
            long old = m.getLongVolatile(op.region, op.offset);
            op.result = old;
            if (op.verb == Verb.FAA || old == op.compare) {
                nic.pendingAtomic = op;
                nic.pendingValue = op.verb == Verb.FAA ? old + op.value : op.value;
                nic.pendingWriteAt = now + f.cost.atomicGapNs;
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
            boolean self = f.viaNic && op.node == op.srcNode;
            long back = self ? now + SimNic.loopbackOneWay(f.cost)
                    : now + Math.round(f.cost.oneWayNs + (op.verb == Verb.READ ? op.length / f.cost.linkBytesPerNs : 0));
            op.kind = K_DONE;
            if (f.paths) PathMarks.back(op, now, back, f.cost.oneWayNs, self);
            send(op, back, op.srcNode);
        } else if (op.srcNode == node) {
            op.landedOnOneThread();
        } else {
            landed(op);
        }
    }
}
