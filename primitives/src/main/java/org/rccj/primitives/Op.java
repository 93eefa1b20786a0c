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
 *
 * <p>Only the work request: what a fabric keeps per op while it is in flight (sim: its event-queue link, the NIC action,
 * the critical path) lives in the fabric's own subclass, which its endpoints create ({@link Endpoint#newOp}).
 */
public class Op {
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

    /** Every builder starts here: the verb and its target, with the engine's per-request state reset. */
    private Op target(Verb verb, int node, int region, long offset, int length) {
        newRequest();
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
        newRequest();
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

    /**
     * Called by every builder before it fills the request: a fabric's own op type ({@link Endpoint#newOp}) resets
     * what it keeps per request (sim: the NIC action and the NIC-generated flag, {@link SmartNic}).
     */
    protected void newRequest() {}

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
