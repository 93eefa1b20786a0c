package org.rccj.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.rccj.ucx.Lib.check;
import static org.rccj.ucx.Lib.rethrow;
import static org.rccj.ucx.Lib.statusPtr;

/**
 * An endpoint of a worker to one peer worker: one-sided get/put/atomics on the peer's registered memory and
 * active messages. Every op returns 0 when it finished in place, else a request for {@link UcxWorker#done} /
 * {@link UcxWorker#await} / {@link UcxWorker#release}; the buffers it names must stay alive until then.
 */
public final class UcxEndpoint {
    private final UcxWorker worker;
    final MemorySegment handle;
    /** The handle's address (what the posting calls pass). */
    private final long address;

    UcxEndpoint(UcxWorker worker, MemorySegment handle) {
        this.worker = worker;
        this.handle = handle;
        this.address = handle.address();
    }

    public UcxWorker worker() {
        return worker;
    }

    /** A peer's packed memory key, usable on this endpoint. */
    public UcxRemoteKey unpack(byte[] rkey) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment kp = a.allocate(ADDRESS);
            check("ucp_ep_rkey_unpack", (byte) Lib.ucp_ep_rkey_unpack.invokeExact(handle,
                    a.allocateFrom(JAVA_BYTE, rkey), kp));
            return new UcxRemoteKey(kp.get(ADDRESS, 0));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private MemorySegment param(int mask) {
        MemorySegment p = worker.param;
        p.set(JAVA_INT, UcxWorker.Q_OP_ATTR_MASK, mask);
        return p;
    }

    /** The worker's request parameters with this op_attr_mask, as an address for the posting calls. */
    private long paramAddress(int mask) {
        worker.param.set(JAVA_INT, UcxWorker.Q_OP_ATTR_MASK, mask);
        return worker.paramAddress;
    }

    /** RDMA READ of dst.byteSize() bytes at the peer's {@code remoteAddress} into dst (native memory). */
    public long get(MemorySegment dst, long remoteAddress, UcxRemoteKey key) { return get(dst, dst.byteSize(), remoteAddress, key); }

    /** RDMA READ of the first {@code length} bytes of dst (a reused buffer: no slice per op). */
    public long get(MemorySegment dst, long length, long remoteAddress, UcxRemoteKey key) {
        return rma("ucp_get_nbx", Lib.ucp_get_nbx, dst, length, remoteAddress, key);
    }

    /** RDMA WRITE of src (native memory) to the peer's {@code remoteAddress}. */
    public long put(MemorySegment src, long remoteAddress, UcxRemoteKey key) { return put(src, src.byteSize(), remoteAddress, key); }

    /** RDMA WRITE of the first {@code length} bytes of src. */
    public long put(MemorySegment src, long length, long remoteAddress, UcxRemoteKey key) {
        return rma("ucp_put_nbx", Lib.ucp_put_nbx, src, length, remoteAddress, key);
    }

    /** ucp_get_nbx / ucp_put_nbx of {@code local}'s first bytes (inlined where {@code h} is a constant handle). */
    private long rma(String name, java.lang.invoke.MethodHandle h, MemorySegment local, long length, long remoteAddress, UcxRemoteKey key) {
        if (length > local.byteSize()) throw new IndexOutOfBoundsException(name + ": " + length + " bytes of a " + local.byteSize() + "-byte buffer");
        try {
            return statusPtr(name, (long) h.invokeExact(address, local.address(), length, remoteAddress, key.address, paramAddress(0)));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * 64-bit fetch-and-add of {@code delta}; {@code io} is 16 native bytes: the operand goes at 0, the old value
     * comes back at 8.
     */
    public long fetchAdd(long remoteAddress, UcxRemoteKey key, long delta, MemorySegment io) {
        io.set(JAVA_LONG, 0, delta);
        return atomic(Lib.ATOMIC_OP_ADD, remoteAddress, key, io);
    }

    /**
     * 64-bit compare-and-swap; {@code io} is 16 native bytes: {@code expect} at 0 (UCX's buffer is the compare
     * value), {@code swap} at 8 (the reply buffer carries the swap value in and the old value out).
     */
    public long compareSwap(long remoteAddress, UcxRemoteKey key, long expect, long swap, MemorySegment io) {
        io.set(JAVA_LONG, 0, expect);
        io.set(JAVA_LONG, 8, swap);
        return atomic(Lib.ATOMIC_OP_CSWAP, remoteAddress, key, io);
    }

    private long atomic(int op, long remoteAddress, UcxRemoteKey key, MemorySegment io) {
        long p = paramAddress(Lib.OP_ATTR_FIELD_DATATYPE | Lib.OP_ATTR_FIELD_REPLY_BUFFER);
        worker.param.set(JAVA_LONG, UcxWorker.Q_DATATYPE, Lib.DATATYPE_CONTIG_8);
        worker.param.set(JAVA_LONG, UcxWorker.Q_REPLY_BUFFER, io.address() + 8);      // a pointer field: no slice per op
        try {
            return statusPtr("ucp_atomic_op_nbx", (long) Lib.ucp_atomic_op_nbx.invokeExact(address, op,
                    io.address(), 1L, remoteAddress, key.address, p));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * An active message with this id carrying {@code data} (native memory; need not be aligned), sent eagerly
     * and with this endpoint for the receiver to reply on.
     */
    public long send(int id, MemorySegment data) { return send(id, data, true); }

    /**
     * As {@link #send(int, MemorySegment)}; without {@code replyEndpoint} the receiver's handler gets no endpoint to
     * reply on (UCX then neither sends nor looks up the sender's endpoint: for peers that reply by their own).
     */
    public long send(int id, MemorySegment data, boolean replyEndpoint) { return send(id, data, data.byteSize(), replyEndpoint); }

    /** As {@link #send(int, MemorySegment, boolean)} with the first {@code length} bytes of data (a reused buffer). */
    public long send(int id, MemorySegment data, long length, boolean replyEndpoint) {
        if (length > data.byteSize()) throw new IndexOutOfBoundsException("ucp_am_send_nbx: " + length + " bytes of a " + data.byteSize() + "-byte buffer");
        long p = paramAddress(Lib.OP_ATTR_FIELD_FLAGS);
        worker.param.set(JAVA_INT, UcxWorker.Q_FLAGS, (replyEndpoint ? Lib.AM_SEND_FLAG_REPLY : 0) | Lib.AM_SEND_FLAG_EAGER);
        try {
            return statusPtr("ucp_am_send_nbx", (long) Lib.ucp_am_send_nbx.invokeExact(address, id,
                    0L, 0L, data.address(), length, p));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Completes every op this endpoint posted. */
    public void flush() {
        worker.await("ucp_ep_flush_nbx", flushRequest());
    }

    /**
     * Starts a flush: the returned request (0: done already) finishes once every op posted on this endpoint before
     * it has completed at the peer (a put's own completion only means its buffer may be reused).
     */
    public long flushRequest() {
        try {
            return statusPtr("ucp_ep_flush_nbx", (long) Lib.ucp_ep_flush_nbx.invokeExact(address, paramAddress(0)));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** What ucp_ep_print_info prints: the transports (lanes) UCX chose to reach this peer. */
    public String info() {
        return Lib.printed("ucp_ep_print_info", f -> {
            try {
                Lib.ucp_ep_print_info.invokeExact(handle, f);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        });
    }

    /**
     * Closes the endpoint after flushing its ops (needs the peer's progress). There is no forced close here: UCX 1.13
     * refuses UCP_EP_CLOSE_FLAG_FORCE without the peer error-handling mode, which it refuses with shared memory; an
     * endpoint to a peer that may be gone is left to {@link UcxWorker#close}, which releases it.
     */
    public void close() {
        MemorySegment p = param(0);
        try {
            long r = statusPtr("ucp_ep_close_nbx", (MemorySegment) Lib.ucp_ep_close_nbx.invokeExact(handle, p));
            worker.await("ucp_ep_close_nbx", r);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
