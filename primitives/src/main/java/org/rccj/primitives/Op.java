package org.rccj.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One verb posted by a worker: a work request and, for RPC, the request and reply messages.
 * Ops are reused; a posted op belongs to the fabric until {@link WorkerHost#onComplete} hands it back
 * (signaled ops and RPCs) or until it has executed (unsignaled ops, then {@link #inFlight} turns false
 * and the host is told through {@code onComplete} as well, with {@link #signaled} false).
 * The payload of a WRITE and the request of an RPC are taken from {@link #data} when the op executes,
 * so a caller must not touch {@code data} while the op is in flight.
 */
public final class Op extends Event {
    /**
     * Sim: the op's critical path ({@link CriticalPath}): its terms in ns ({@code t<index>}; ints: one stretch of an op's
     * path is far below 2^31 ns), which of them this trip set, and when the last one ended. The framework starts a
     * trip ({@link #pathStart}); the fabric moves it ({@link #mark}). Fields, not an array: the simulator is bound by
     * memory accesses and the op's own cache lines are the ones it touches anyway (an array beside the op cost about
     * 6% more of the simulator thread, docs/measurements/critical-path.md).
     */
    private int t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15, t16, t17, t18, t19, t20, t21;
    public int pathSet;
    public long pathAt;

    /** Starts the op's critical path at {@code t} (no term yet). */
    public void pathStart(long t) { pathAt = t; pathSet = 0; }

    /** Term {@code i} of the current trip, ns (meaningful when bit {@code i} of {@link #pathSet} is set). */
    public int term(int i) {
        return switch (i) {
            case 0 -> t0;
            case 1 -> t1;
            case 2 -> t2;
            case 3 -> t3;
            case 4 -> t4;
            case 5 -> t5;
            case 6 -> t6;
            case 7 -> t7;
            case 8 -> t8;
            case 9 -> t9;
            case 10 -> t10;
            case 11 -> t11;
            case 12 -> t12;
            case 13 -> t13;
            case 14 -> t14;
            case 15 -> t15;
            case 16 -> t16;
            case 17 -> t17;
            case 18 -> t18;
            case 19 -> t19;
            case 20 -> t20;
            case 21 -> t21;
            default -> throw new IllegalArgumentException("no critical-path term " + i);
        };
    }

    /** The stretch from the last mark to {@code t} belongs to term {@code term} (added when the term already has some). */
    public void mark(int term, long t) {
        int bit = 1 << term;
        int d = (int) (t - pathAt);
        if ((pathSet & bit) != 0) d += term(term);
        switch (term) {
            case 0 -> t0 = d;
            case 1 -> t1 = d;
            case 2 -> t2 = d;
            case 3 -> t3 = d;
            case 4 -> t4 = d;
            case 5 -> t5 = d;
            case 6 -> t6 = d;
            case 7 -> t7 = d;
            case 8 -> t8 = d;
            case 9 -> t9 = d;
            case 10 -> t10 = d;
            case 11 -> t11 = d;
            case 12 -> t12 = d;
            case 13 -> t13 = d;
            case 14 -> t14 = d;
            case 15 -> t15 = d;
            case 16 -> t16 = d;
            case 17 -> t17 = d;
            case 18 -> t18 = d;
            case 19 -> t19 = d;
            case 20 -> t20 = d;
            case 21 -> t21 = d;
            default -> throw new IllegalArgumentException("no critical-path term " + term);
        }
        pathSet |= bit;
        pathAt = t;
    }

    public Verb verb;
    /** Target node. */
    public int node;
    public int region;
    public long offset;
    /** READ/WRITE: bytes; RPC: request bytes in {@link #data}. */
    public int length;
    /** READ destination, WRITE source, RPC request. Owned by the op. */
    public byte[] data = new byte[64];
    /** CAS: expected value; FAA: unused. */
    public long compare;
    /** CAS: new value; FAA: the addend. */
    public long value;
    /** CAS/FAA: the value found in memory. */
    public long result;
    public boolean signaled = true;
    public volatile boolean inFlight;

    /** RPC: handler id. */
    public int handler;
    /** RPC: reply message written by the handler, {@link #replyLength} bytes. */
    public byte[] reply = new byte[64];
    public int replyLength;

    /** Who posted it (filled by the fabric). */
    public int srcNode, srcWorker;
    /** Owner cookie for the framework (the waiting coroutine). */
    public Object owner;
    /** Free for the framework: e.g. which entry of a read set this op serves. */
    public int tag;

    /** Sim: run by the target NIC before (or instead of) the memory operation (simulated NIC hardware); reset by every builder. */
    public NicAction nicAction;
    /**
     * Sim: a one-sided op the requester NIC generates itself (a SmartNIC fanning out one command of its core,
     * e.g. HADES's commit exchange): the core pays neither doorbell nor WQE for it and the NIC fetches no
     * WQE; reset by every builder.
     */
    public boolean fromNic;

    /** Fabric: this op rang the doorbell of its batch (the NIC fetches the batch's WQEs once). */
    public boolean rang;
    /** Fabric: a passive (unsignaled) RPC whose handler has run; its sender learns it from a later reply. */
    public boolean handled;
    /** Sim: bytes of a torn READ transferred so far (0 = not started; its NIC action runs only then). */
    public int tornDone;

    /** Every builder starts here: the verb and its target, with the per-op NIC flags reset. */
    private Op target(Verb verb, int node, int region, long offset, int length) {
        this.nicAction = null;
        this.fromNic = false;
        this.verb = verb; this.node = node; this.region = region; this.offset = offset; this.length = length;
        return this;
    }

    public Op read(int node, int region, long offset, int length) {
        target(Verb.READ, node, region, offset, length);
        data = Bytes.ensure(data, length);
        return this;
    }

    /** Prepares a WRITE; the caller then fills {@code data[0..length)}. */
    public Op write(int node, int region, long offset, int length) {
        target(Verb.WRITE, node, region, offset, length);
        data = Bytes.ensure(data, length);
        return this;
    }

    public Op writeLong(int node, int region, long offset, long v) {
        write(node, region, offset, 8);
        Bytes.putLong(data, 0, v);
        return this;
    }

    public Op cas(int node, int region, long offset, long expect, long update) {
        target(Verb.CAS, node, region, offset, 8);
        this.compare = expect; this.value = update;
        return this;
    }

    public Op faa(int node, int region, long offset, long delta) {
        target(Verb.FAA, node, region, offset, 8);
        this.value = delta;
        return this;
    }

    /** Prepares an RPC; the caller then fills {@code data[0..length)} with the request. */
    public Op rpc(int node, int handler, int length) {
        this.nicAction = null;
        this.fromNic = false;
        this.verb = Verb.RPC; this.node = node; this.handler = handler; this.length = length;
        data = Bytes.ensure(data, length);
        replyLength = 0;
        return this;
    }

    /** Handler side: makes room for a reply of {@code len} bytes and sets its length. */
    public byte[] replyBuffer(int len) {
        reply = Bytes.ensure(reply, len);
        replyLength = len;
        return reply;
    }

    /**
     * Not signaled. A one-sided op then produces no completion (passive ACK: its completion is implied by
     * a later signaled op to the same node). An RPC becomes a passive RPC: its handler runs and calls
     * {@code reply} as usual, but no reply message is sent; the sender learns that the handler ran from the
     * next signaled RPC reply from the same node ({@link #inFlight} turns false then, without
     * {@code onComplete}). The handler's reply data is discarded.
     */
    public Op unsignaled() { signaled = false; return this; }

    /** Fabric side: the op leaves worker {@code worker} of node {@code node} and is in flight until it completes. */
    public void posted(int node, int worker) {
        srcNode = node;
        srcWorker = worker;
        inFlight = true;
    }

    /**
     * {@link #posted}, for a fabric that runs every worker on one thread ({@link Fabric#oneThread()}): {@link #inFlight}
     * is set by a plain store, as no other thread reads it; a volatile store is a full fence on x86, which waits for
     * every store before it (cold ops and memory: cache misses) once per op and once per completion.
     */
    public void postedOnOneThread(int node, int worker) {
        srcNode = node;
        srcWorker = worker;
        IN_FLIGHT.set(this, true);
    }

    /** {@code inFlight = false} by a plain store, for a fabric that runs every worker on one thread (see {@link #postedOnOneThread}). */
    public void landedOnOneThread() { IN_FLIGHT.set(this, false); }

    private static final VarHandle IN_FLIGHT;
    static {
        try {
            IN_FLIGHT = MethodHandles.lookup().findVarHandle(Op.class, "inFlight", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Fabric side: the op becomes a timer of that worker (completes when its time comes). */
    public void postedAsTimer(int node, int worker) {
        verb = Verb.TIMER;
        posted(node, worker);
    }

    /** Has the target NIC run {@code a} before, or instead of, the memory operation (sim only; see {@link NicAction}). */
    public Op atNic(NicAction a) { nicAction = a; return this; }

    /** Generated by the requester NIC, not posted by the core (sim only; see {@link #fromNic}). */
    public Op byNic() { fromNic = true; return this; }

    /** Bytes this op moves on the wire (payload, not headers). */
    public int wireBytes() {
        return switch (verb) {
            case READ, WRITE -> length;
            case CAS, FAA -> 8;
            case RPC -> length + replyLength;
            case TIMER -> 0;
        };
    }
}
