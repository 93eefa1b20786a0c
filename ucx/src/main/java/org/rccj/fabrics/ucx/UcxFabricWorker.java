package org.rccj.fabrics.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.rccj.fabrics.threads.ThreadWorker;
import org.rccj.primitives.Op;
import org.rccj.primitives.Verb;
import org.rccj.ucx.UcxEndpoint;
import org.rccj.ucx.UcxRemoteKey;
import org.rccj.ucx.UcxWorker;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.rccj.fabrics.ucx.UcxFabric.*;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;

/**
 * A worker of the ucx fabric: one thread with its own UCP worker, endpoints to every worker of the other nodes (and one
 * to itself for the loopback route), the calls it awaits, the passive RPCs it has yet to acknowledge, and the event
 * loop (progress, the poll point, ready coroutines, sleep on UCX's event fd). Its fabric is {@link UcxFabric}.
 */
final class UcxFabricWorker extends ThreadWorker {
    /** The fabric this worker belongs to (its nodes, workers, counters and run state). */
    private final UcxFabric f;
    /**
     * {@link #outstanding}, written by the worker's thread with release stores, read by any thread; and
     * {@link Op#inFlight}, set with release stores (see {@link #inFlight}).
     */
    static final VarHandle OUTSTANDING, IN_FLIGHT;

    static {
        try {
            OUTSTANDING = MethodHandles.lookup().findVarHandle(UcxFabricWorker.class, "outstanding", long.class);
            IN_FLIGHT = MethodHandles.lookup().findVarHandle(Op.class, "inFlight", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Sets {@link Op#inFlight} with a release store: whoever reads it (the op's own worker, or any thread through
     * a volatile read) sees the op's results written before, without the full fence of a volatile store per op.
     */
    private static void inFlight(Op op, boolean v) { IN_FLIGHT.setRelease(op, v); }

    final UcxWorker ucx;
    final Arena arena = Arena.ofShared();
    /** Endpoints to every worker of every other node ({@code [node][worker]}, null for this node). */
    UcxEndpoint[][] eps;
    /** The worker of every other node this one sends its calls and one-sided ops to (of the same index). */
    final int peer;
    /**
     * Keys and addresses of every other node's chunks, unpacked on {@code eps[node][peer]}, and of the own node's on
     * {@link #selfEp} (the loopback route's).
     */
    UcxRemoteKey[][][] keys;
    long[][][] bases;
    /** An endpoint to this worker itself: the loopback route's CPU atomics go through UCX (the NIC on RDMA). */
    UcxEndpoint selfEp;
    MemorySegment loopbackIo;
    final ArrayList<Slot> pending = new ArrayList<>();
    final ArrayDeque<Slot> free = new ArrayDeque<>();
    /** This worker's ops in flight: a plain count its own thread keeps (no atomic read-modify-write per op). */
    @SuppressWarnings("unused") private long outstanding;
    /** Calls this worker sent and awaits a reply or (passive) an ack for, by call id. */
    Op[] calls = new Op[64];
    /** Call ids free for reuse (a stack of {@code freeCount}); ids from {@code nextId} on were never used. */
    int[] freeIds = new int[64];
    int freeCount, nextId;
    /** Ops for calls that arrive; a call's op goes back to the pool of the worker that answers it. */
    final ArrayDeque<Op> callPool = new ArrayDeque<>();
    /** RPCs and replies that arrived during progress, served after it returns (the poll point). */
    final ArrayDeque<Op> arrived = new ArrayDeque<>(), replied = new ArrayDeque<>();
    /** Replies other workers of this node hand over (deferred replies). */
    final ConcurrentLinkedQueue<Op> handedOver = new ConcurrentLinkedQueue<>();
    /**
     * Passive RPCs whose handler ran here and whose senders do not know it yet: per sender ({@code srcNode *
     * threads + srcWorker}) their call ids, sent back with this worker's next reply to that sender, or on their
     * own once {@link #ACK_BATCH} gathered or this worker is about to sleep.
     */
    final int[][] acks;
    final int[] ackCount;
    /** Senders with acks pending here. */
    int ackSenders;
    /** Messages sent: replies to signaled RPCs, and acks on their own (for the tests). */
    long repliesSent, acksSent;
    /** CPU atomics this worker sent through UCX on its own endpoint (the loopback route). */
    long loopbackAtomics;

    UcxFabricWorker(UcxFabric f, int node, int worker, UcxWorker ucx) {
        super(node, worker, f.cost, UcxFabric.SPIN_NS, UcxFabric.PARK_NS);
        this.f = f;
        this.ucx = ucx;
        acks = new int[f.nodes * f.threads][ACK_BATCH];
        ackCount = new int[f.nodes * f.threads];
        this.peer = worker % f.threads;
        ucx.setAmHandler(AM_CALL, (data, from) -> arrived.add(readCall(data)));
        ucx.setAmHandler(AM_REPLY, (data, from) -> replied.add(readReply(data)));
        ucx.setAmHandler(AM_ACK, (data, from) -> learn(data, ACK_FIXED, data.get(JAVA_INT_UNALIGNED, ACK_COUNT)));
    }

    void connect(Blob[] blobs) {
        eps = new UcxEndpoint[f.nodes][];
        keys = new UcxRemoteKey[f.nodes][][];
        bases = new long[f.nodes][][];
        for (int m = 0; m < f.nodes; m++) {
            UcxEndpoint oneSided;
            if (m == node) {
                oneSided = selfEp = ucx.connect(blobs[m].addresses()[worker]);
                loopbackIo = arena.allocate(16, 8);
            } else {
                eps[m] = new UcxEndpoint[f.threads];
                for (int u = 0; u < f.threads; u++) eps[m][u] = ucx.connect(blobs[m].addresses()[u]);
                oneSided = eps[m][peer];
            }
            List<List<Blob.Chunk>> cs = blobs[m].chunks();
            keys[m] = new UcxRemoteKey[cs.size()][];
            bases[m] = new long[cs.size()][];
            for (int r = 0; r < cs.size(); r++) {
                List<Blob.Chunk> rc = cs.get(r);
                keys[m][r] = new UcxRemoteKey[rc.size()];
                bases[m][r] = new long[rc.size()];
                for (int c = 0; c < rc.size(); c++) {
                    keys[m][r][c] = oneSided.unpack(rc.get(c).rkey());
                    bases[m][r][c] = rc.get(c).address();
                }
            }
        }
    }

    /** A CAS ({@code cas}) or FAA on this node's memory through UCX on the own endpoint; waits for it (the core does). */
    long loopback(boolean cas, int region, long off, long expect, long value) {
        int chunk = (int) (off >>> CHUNK_BITS);
        long addr = bases[node][region][chunk] + (off & CHUNK_MASK);
        UcxRemoteKey key = keys[node][region][chunk];
        long req = cas ? selfEp.compareSwap(addr, key, expect, value, loopbackIo) : selfEp.fetchAdd(addr, key, value, loopbackIo);
        ucx.await(cas ? "ucp_atomic_op_nbx (loopback CAS)" : "ucp_atomic_op_nbx (loopback FAA)", req);
        loopbackAtomics++;
        return loopbackIo.get(JAVA_LONG, 8);
    }

    void closeEndpoints() {
        if (eps == null) return;
        // peers may be gone (or stopped progressing): the endpoints are released with the worker, not flushed
        for (UcxRemoteKey[][] k : keys) if (k != null) for (UcxRemoteKey[] kr : k) for (UcxRemoteKey key : kr) key.close();
        eps = null;
    }

    private void outstanding(long delta) {
        OUTSTANDING.setRelease(this, outstanding + delta);
    }

    private Op readCall(MemorySegment d) {
        int len = (int) d.byteSize() - CALL_HEADER;
        Op call = callPool.poll();
        if (call == null) call = new Op();
        call.rpc(node, d.get(JAVA_SHORT_UNALIGNED, CALL_HANDLER) & 0xffff, len);
        call.srcNode = d.get(JAVA_SHORT_UNALIGNED, CALL_SRC_NODE) & 0xffff;
        call.srcWorker = d.get(JAVA_SHORT_UNALIGNED, CALL_SRC_WORKER) & 0xffff;
        call.signaled = (d.get(JAVA_SHORT_UNALIGNED, CALL_FLAGS) & FLAG_PASSIVE) == 0;
        call.compare = d.get(JAVA_INT_UNALIGNED, CALL_ID);
        MemorySegment.copy(d, JAVA_BYTE, CALL_HEADER, call.data, 0, len);
        return call;
    }

    private Op readReply(MemorySegment d) {
        int acked = d.get(JAVA_INT_UNALIGNED, REPLY_ACKS);
        learn(d, REPLY_FIXED, acked);     // before the reply completes: its caller sees those passive RPCs done
        int at = REPLY_FIXED + 4 * acked, len = (int) d.byteSize() - at;
        Op op = takeCall(d.get(JAVA_INT_UNALIGNED, REPLY_ID));
        byte[] r = op.replyBuffer(len);
        MemorySegment.copy(d, JAVA_BYTE, at, r, 0, len);
        return op;
    }

    /** The {@code n} call ids at {@code at} are passive RPCs whose handlers ran: no longer in flight. */
    private void learn(MemorySegment d, long at, int n) {
        for (int i = 0; i < n; i++) {
            Op op = takeCall(d.get(JAVA_INT_UNALIGNED, at + 4L * i));
            inFlight(op, false);
            outstanding(-1);
        }
    }

    /** A call id for {@code op}, until its reply or ack ({@link #takeCall}). */
    private int newCall(Op op) {
        int id = freeCount > 0 ? freeIds[--freeCount] : nextId++;
        if (id >= calls.length) calls = Arrays.copyOf(calls, calls.length * 2);
        calls[id] = op;
        return id;
    }

    private Op takeCall(int id) {
        Op op = calls[id];
        calls[id] = null;
        if (freeCount == freeIds.length) freeIds = Arrays.copyOf(freeIds, freeCount * 2);
        freeIds[freeCount++] = id;
        return op;
    }

    @Override protected boolean nothingQueued() { return handedOver.isEmpty() && arrived.isEmpty(); }

    @Override protected void arriveHere(Op call) { arrived.add(call); }

    // an idle worker first sends the acks it holds (their senders may wait for nothing else), then sleeps on its
    // UCX event fd: a message, a remote op UCX must serve (emulated RMA over TCP) or a peer worker's signal (a
    // handed-over reply) wakes it at once
    @Override
    protected void park(long ns) {
        if (ackSenders > 0) {
            for (int src = 0; src < ackCount.length; src++) if (ackCount[src] > 0) sendAcks(src);
            return;
        }
        ucx.sleep(ns);
    }

    @Override protected void unpark() { ucx.signal(); }

    @Override
    protected void loop() {
        CURRENT.set(this);
        try {
            while (!f.allDone()) {
                long t0 = System.nanoTime();
                boolean worked = ucx.progress() > 0;
                Op op;
                while ((op = arrived.poll()) != null) {
                    worked = true;
                    if (op.handler >= host.handlers()) throw new IllegalStateException("node " + node + " worker "
                            + worker + ": an RPC to unknown handler " + op.handler + " from node " + op.srcNode);
                    host.onRpc(op);
                }
                while ((op = replied.poll()) != null) {
                    worked = true;
                    complete(op);
                }
                while ((op = handedOver.poll()) != null) {
                    worked = true;
                    inFlight(op, false);
                    f.handedOverCalls.decrementAndGet();
                    host.onComplete(op);
                }
                if (reap()) worked = true;
                if (fireTimers(t0)) worked = true;
                for (int i = 0; i < RESUMES_PER_PASS && host.runOne(); i++) worked = true;
                if (justFinished()) f.unfinished.decrementAndGet();
                endPass(t0, t0, worked);
            }
        } catch (Throwable t) {
            f.failure.compareAndSet(null, t);
            f.stop = true;
            if (f.cluster != null) f.cluster.fail("node " + node + " worker " + worker + " failed: " + t);
        }
    }

    private void complete(Op op) {
        inFlight(op, false);
        outstanding(-1);
        host.onComplete(op);
    }

    /** Finishes the slots whose UCX requests are done; true if any. */
    private boolean reap() {
        boolean any = false;
        for (int i = pending.size() - 1; i >= 0; i--) {
            Slot s = pending.get(i);
            if (!ucx.done("op", s.request)) continue;
            pending.set(i, pending.getLast());
            pending.removeLast();
            finish(s);
            any = true;
        }
        return any;
    }

    private void finish(Slot s) {
        if (s.kind == Slot.FLUSH) {
            for (Slot w : s.writes) finish(w);
            s.writes.clear();
        } else if (s.kind == Slot.ONE_SIDED) {
            Op op = s.op;
            switch (op.verb) {
                case READ -> MemorySegment.copy(s.buf, JAVA_BYTE, 0, op.data, 0, op.length);
                case CAS, FAA -> op.result = s.buf.get(JAVA_LONG, 8);
                default -> { }
            }
            if (op.signaled) {
                complete(op);
            } else {
                inFlight(op, false);
                outstanding(-1);
            }
        }
        s.op = null;
        free.push(s);
    }

    private Slot slot(byte kind, Op op, long bytes) {
        Slot s = free.isEmpty() ? new Slot() : free.pop();
        s.kind = kind;
        s.op = op;
        if (s.buf == null || s.buf.byteSize() < bytes) s.buf = arena.allocate(Math.max(64, Long.highestOneBit(bytes - 1) << 1), 8);
        return s;
    }

    private void track(Slot s, long request) {
        s.request = request;
        if (request == 0) finish(s); else pending.add(s);
    }

    @Override public long now() { return f.clusterNow(); }
    // an unsignaled RPC goes as a call with FLAG_PASSIVE: the handler's reply sends no message, its call id comes
    // back with the target worker's next reply to this worker or in an ack of its own (Decisions, 2026-11-27)
    @Override public boolean passiveRpc() { return true; }

    @Override
    public void post(Op op) {
        if (op.verb != Verb.RPC) {
            postAlone(op);
            return;
        }
        if (!rpcLeaves(op)) return;
        if (op.handler > 0xffff) throw new IllegalArgumentException("ucx: RPC handler " + op.handler + " above 65535");
        outstanding(1);
        int id = newCall(op);
        Slot s = slot(Slot.CALL, op, CALL_HEADER + op.length);
        MemorySegment b = s.buf;          // the slot's reused buffer; the send names how many bytes
        b.set(JAVA_SHORT_UNALIGNED, CALL_SRC_NODE, (short) node);
        b.set(JAVA_SHORT_UNALIGNED, CALL_SRC_WORKER, (short) worker);
        b.set(JAVA_SHORT_UNALIGNED, CALL_HANDLER, (short) op.handler);
        b.set(JAVA_SHORT_UNALIGNED, CALL_FLAGS, (short) (op.signaled ? 0 : FLAG_PASSIVE));
        b.set(JAVA_INT_UNALIGNED, CALL_ID, id);
        MemorySegment.copy(op.data, 0, b, JAVA_BYTE, CALL_HEADER, op.length);
        track(s, eps[op.node][peer].send(AM_CALL, b, CALL_HEADER + op.length, false));   // replies go to eps[src] by the header
    }

    @Override
    public void post(Op[] ops, int n) {
        if (n == 0) return;
        int dst = ops[0].node;
        if (dst == node) {
            executeLocally(f.memory[node], ops, n);
            return;
        }
        UcxEndpoint ep = eps[dst][peer];
        boolean unsignaledBefore = false;
        Slot flush = null;
        counters.doorbells++;
        for (int i = 0; i < n; i++) {
            Op op = ops[i];
            if (op.verb == Verb.RPC) throw new IllegalArgumentException("an RPC inside a one-sided doorbell batch");
            op.srcNode = node;              // Op.posted, with a release store (as inFlight's others here)
            op.srcWorker = worker;
            inFlight(op, true);
            counters.count(op);
            outstanding(1);
            // the batch executes in posting order: an op after unsignaled ones (update, then unlock) is fenced
            if (unsignaledBefore) ucx.fence();
            if (!op.signaled) unsignaledBefore = true;
            int chunk = (int) (op.offset >>> CHUNK_BITS);
            if ((op.offset + Math.max(op.length, 8) - 1) >>> CHUNK_BITS != chunk)
                throw new IllegalArgumentException("a " + op.verb + " across a 1 GiB chunk boundary of region " + op.region);
            long addr = bases[dst][op.region][chunk] + (op.offset & CHUNK_MASK);
            UcxRemoteKey key = keys[dst][op.region][chunk];
            Slot s = slot(Slot.ONE_SIDED, op, Math.max(16, op.length));
            long req = switch (op.verb) {
                case READ -> ep.get(s.buf, op.length, addr, key);
                case WRITE -> {
                    MemorySegment.copy(op.data, 0, s.buf, JAVA_BYTE, 0, op.length);
                    // done when at the target, as an RDMA WRITE's completion says: the batch's flush finishes it
                    ucx.release(ep.put(s.buf, op.length, addr, key));
                    if (flush == null) flush = slot(Slot.FLUSH, null, 0);
                    flush.writes.add(s);
                    yield -1;
                }
                case CAS -> ep.compareSwap(addr, key, op.compare, op.value, s.buf);
                case FAA -> ep.fetchAdd(addr, key, op.value, s.buf);
                default -> throw new IllegalArgumentException("not a one-sided verb: " + op.verb);
            };
            if (req != -1) track(s, req);
        }
        if (flush != null) track(flush, ep.flushRequest());
    }

    @Override
    public void reply(Op call) {
        if (call.srcNode == node) {
            if (!call.signaled) {
                call.inFlight = false;
            } else if (call.srcWorker == worker) {
                call.inFlight = false;
                host.onComplete(call);
            } else {
                f.handedOverCalls.incrementAndGet();       // balanced when that worker takes it
                UcxFabricWorker w = f.workers[node][call.srcWorker];
                w.handedOver.add(call);
                w.wake();
            }
            return;
        }
        int src = call.srcNode * f.threads + call.srcWorker;
        if (!call.signaled) {
            // a passive RPC: no reply message; its sender learns from a later one that the handler ran
            if (ackCount[src] == 0) ackSenders++;
            acks[src][ackCount[src]++] = (int) call.compare;
            if (ackCount[src] == ACK_BATCH) sendAcks(src);
        } else {
            int acked = ackCount[src], at = REPLY_FIXED + 4 * acked;
            Slot s = slot(Slot.REPLY, null, at + call.replyLength);
            s.buf.set(JAVA_INT_UNALIGNED, REPLY_ID, (int) call.compare);
            s.buf.set(JAVA_INT_UNALIGNED, REPLY_ACKS, acked);
            takeAcks(src, s.buf, REPLY_FIXED);
            MemorySegment.copy(call.reply, 0, s.buf, JAVA_BYTE, at, call.replyLength);
            track(s, eps[call.srcNode][call.srcWorker].send(AM_REPLY, s.buf, at + call.replyLength, false));
            repliesSent++;
        }
        callPool.add(call);
    }

    /** Sends the acks pending for sender {@code src} in a message of their own. */
    private void sendAcks(int src) {
        int n = ackCount[src];
        Slot s = slot(Slot.REPLY, null, ACK_FIXED + 4L * n);
        s.buf.set(JAVA_INT_UNALIGNED, ACK_COUNT, n);
        takeAcks(src, s.buf, ACK_FIXED);
        track(s, eps[src / f.threads][src % f.threads].send(AM_ACK, s.buf, ACK_FIXED + 4L * n, false));
        acksSent++;
    }

    /** Writes the acks pending for {@code src} to {@code buf} at {@code at}; none are pending after. */
    private void takeAcks(int src, MemorySegment buf, long at) {
        int n = ackCount[src];
        if (n == 0) return;
        for (int i = 0; i < n; i++) buf.set(JAVA_INT_UNALIGNED, at + 4L * i, acks[src][i]);
        ackCount[src] = 0;
        ackSenders--;
    }
}
