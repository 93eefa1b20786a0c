package org.rccj.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.HashMap;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.rccj.ucx.Lib.check;
import static org.rccj.ucx.Lib.rethrow;

/**
 * A UCP worker: its own endpoints, progress and active-message handlers. One thread at a time (UCX 1.13 must
 * never see two threads in one worker); handlers run inside {@link #progress} on the calling thread.
 */
public final class UcxWorker implements AutoCloseable {
    /** A received active message; {@code data} is valid only during the call (copy what you keep). */
    @FunctionalInterface
    public interface AmHandler {
        void onMessage(MemorySegment data, UcxEndpoint replyTo);
    }

    private static final long W_FIELD_MASK = Structs.offset(Structs.WORKER_PARAMS, "field_mask"),
            W_THREAD_MODE = Structs.offset(Structs.WORKER_PARAMS, "thread_mode");
    private static final long E_FIELD_MASK = Structs.offset(Structs.EP_PARAMS, "field_mask"),
            E_ADDRESS = Structs.offset(Structs.EP_PARAMS, "address"),
            E_ERR_MODE = Structs.offset(Structs.EP_PARAMS, "err_mode");
    private static final long H_FIELD_MASK = Structs.offset(Structs.AM_HANDLER_PARAM, "field_mask"),
            H_ID = Structs.offset(Structs.AM_HANDLER_PARAM, "id"),
            H_FLAGS = Structs.offset(Structs.AM_HANDLER_PARAM, "flags"),
            H_CB = Structs.offset(Structs.AM_HANDLER_PARAM, "cb"),
            H_ARG = Structs.offset(Structs.AM_HANDLER_PARAM, "arg");
    private static final long R_RECV_ATTR = Structs.offset(Structs.AM_RECV_PARAM, "recv_attr"),
            R_REPLY_EP = Structs.offset(Structs.AM_RECV_PARAM, "reply_ep");
    static final long Q_OP_ATTR_MASK = Structs.offset(Structs.REQUEST_PARAM, "op_attr_mask"),
            Q_FLAGS = Structs.offset(Structs.REQUEST_PARAM, "flags"),
            Q_DATATYPE = Structs.offset(Structs.REQUEST_PARAM, "datatype"),
            Q_REPLY_BUFFER = Structs.offset(Structs.REQUEST_PARAM, "reply_buffer");

    private static final MethodHandle ON_AM;
    private static final FunctionDescriptor AM_CB = FunctionDescriptor.of(JAVA_BYTE, ADDRESS, ADDRESS, JAVA_LONG,
            ADDRESS, JAVA_LONG, ADDRESS);

    static {
        try {
            ON_AM = MethodHandles.lookup().findVirtual(UcxWorker.class, "onAm", MethodType.methodType(byte.class,
                    AmHandler.class, MemorySegment.class, MemorySegment.class, long.class, MemorySegment.class, long.class,
                    MemorySegment.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final MemorySegment handle;
    private final Arena arena = Arena.ofShared();
    /** The request parameters every op of this worker fills (one thread at a time uses the worker). */
    final MemorySegment param;
    /** Its address, as the posting calls pass it (UcxEndpoint). */
    final long paramAddress;
    private final Map<Long, UcxEndpoint> replyEndpoints = new HashMap<>();
    /** The reply endpoint last looked up (a worker mostly hears from the same peer: no map lookup, no boxing). */
    private long lastReplyEp;
    private UcxEndpoint lastReply;
    private RuntimeException handlerFailure;
    private boolean closed;

    UcxWorker(UcxContext ctx) {
        param = arena.allocate(Structs.REQUEST_PARAM);
        paramAddress = param.address();
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(Structs.WORKER_PARAMS);
            params.set(JAVA_LONG, W_FIELD_MASK, Lib.WORKER_PARAM_FIELD_THREAD_MODE);
            params.set(JAVA_INT, W_THREAD_MODE, Lib.THREAD_MODE_SERIALIZED);
            MemorySegment wp = a.allocate(ADDRESS);
            check("ucp_worker_create", (byte) Lib.ucp_worker_create.invokeExact(ctx.handle, params, wp));
            handle = wp.get(ADDRESS, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** This worker's address, for peers to connect to ({@link #connect}). */
    public byte[] address() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ap = a.allocate(ADDRESS), lp = a.allocate(JAVA_LONG);
            check("ucp_worker_get_address", (byte) Lib.ucp_worker_get_address.invokeExact(handle, ap, lp));
            MemorySegment addr = ap.get(ADDRESS, 0).reinterpret(lp.get(JAVA_LONG, 0));
            byte[] out = addr.toArray(JAVA_BYTE);
            Lib.ucp_worker_release_address.invokeExact(handle, addr);
            return out;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * An endpoint to the worker at {@code address}. No peer-failure mode: UCX 1.13 refuses shared memory with
     * UCP_ERR_HANDLING_MODE_PEER, so a dead peer is found by the control plane, not here.
     */
    public UcxEndpoint connect(byte[] address) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(Structs.EP_PARAMS);
            params.set(JAVA_LONG, E_FIELD_MASK, Lib.EP_PARAM_FIELD_REMOTE_ADDRESS | Lib.EP_PARAM_FIELD_ERR_HANDLING_MODE);
            params.set(ADDRESS, E_ADDRESS, a.allocateFrom(JAVA_BYTE, address));
            params.set(JAVA_INT, E_ERR_MODE, Lib.ERR_HANDLING_MODE_NONE);
            MemorySegment ep = a.allocate(ADDRESS);
            check("ucp_ep_create", (byte) Lib.ucp_ep_create.invokeExact(handle, params, ep));
            return new UcxEndpoint(this, ep.get(ADDRESS, 0));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Serves active messages with this id by {@code handler}, inside {@link #progress}. */
    public void setAmHandler(int id, AmHandler handler) {
        try (Arena a = Arena.ofConfined()) {
            // the handler is bound into the upcall itself: no lookup by id per message
            MemorySegment stub = Linker.nativeLinker().upcallStub(
                    MethodHandles.insertArguments(ON_AM, 0, this, handler), AM_CB, arena);
            MemorySegment p = a.allocate(Structs.AM_HANDLER_PARAM);
            p.set(JAVA_LONG, H_FIELD_MASK, Lib.AM_HANDLER_PARAM_FIELD_ID | Lib.AM_HANDLER_PARAM_FIELD_FLAGS
                    | Lib.AM_HANDLER_PARAM_FIELD_CB | Lib.AM_HANDLER_PARAM_FIELD_ARG);
            p.set(JAVA_INT, H_ID, id);
            p.set(JAVA_INT, H_FLAGS, Lib.AM_FLAG_WHOLE_MSG);
            p.set(ADDRESS, H_CB, stub);
            p.set(ADDRESS, H_ARG, MemorySegment.NULL);
            check("ucp_worker_set_am_recv_handler", (byte) Lib.ucp_worker_set_am_recv_handler.invokeExact(handle, p));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @SuppressWarnings("unused") // the upcall; must not throw into native code
    private byte onAm(AmHandler handler, MemorySegment arg, MemorySegment header, long headerLength, MemorySegment data,
                      long length, MemorySegment recvParam) {
        try {
            MemorySegment rp = recvParam.reinterpret(Structs.AM_RECV_PARAM.byteSize());
            UcxEndpoint reply = null;
            if ((rp.get(JAVA_LONG, R_RECV_ATTR) & Lib.AM_RECV_ATTR_FIELD_REPLY_EP) != 0) {
                long ep = rp.get(ADDRESS, R_REPLY_EP).address();
                if (ep != lastReplyEp || lastReply == null) {
                    lastReply = replyEndpoints.computeIfAbsent(ep, e -> new UcxEndpoint(this, MemorySegment.ofAddress(e)));
                    lastReplyEp = ep;
                }
                reply = lastReply;
            }
            handler.onMessage(data.reinterpret(length), reply);
        } catch (RuntimeException | Error e) {
            if (handlerFailure == null) handlerFailure = e instanceof RuntimeException r ? r : new IllegalStateException(e);
        }
        return Lib.UCS_OK;
    }

    /** struct pollfd {int fd; short events; short revents;} and struct timespec {long sec; long nsec;}: this worker's ppoll arguments. */
    private MemorySegment pollFd, timeout;
    private static final short POLLIN = 1;

    /**
     * Sleeps until a message or op event arrives for this worker, {@link #signal} is called, or {@code ns} pass;
     * returns at once if events are pending. Call only from the worker's thread, after checking its own queues
     * (a {@link #signal} after that check wakes it).
     */
    public void sleep(long ns) {
        try {
            if (pollFd == null) {
                MemorySegment fd = arena.allocate(JAVA_INT);
                check("ucp_worker_get_efd", (byte) Lib.ucp_worker_get_efd.invokeExact(handle, fd));
                pollFd = arena.allocate(8, 4);
                pollFd.set(JAVA_INT, 0, fd.get(JAVA_INT, 0));
                pollFd.set(java.lang.foreign.ValueLayout.JAVA_SHORT, 4, POLLIN);
                timeout = arena.allocate(16, 8);
            }
            byte st = (byte) Lib.ucp_worker_arm.invokeExact(handle);
            if (st == Lib.UCS_ERR_BUSY) return;          // events are pending: progress instead
            check("ucp_worker_arm", st);
            timeout.set(JAVA_LONG, 0, ns / 1_000_000_000L);
            timeout.set(JAVA_LONG, 8, ns % 1_000_000_000L);
            int r = (int) Lib.ppoll.invokeExact(pollFd, 1L, timeout, MemorySegment.NULL);
            // r < 0 is EINTR (a signal to the JVM): the caller's loop just goes on
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Wakes this worker from {@link #sleep} (any thread may call it). */
    public void signal() { call("ucp_worker_signal", Lib.ucp_worker_signal); }

    /** One round of progress (serving active messages and completing ops); how many events it handled. */
    public int progress() {
        int n;
        try {
            n = (int) Lib.ucp_worker_progress.invokeExact(handle);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        if (handlerFailure != null) {
            RuntimeException e = handlerFailure;
            handlerFailure = null;
            throw e;
        }
        return n;
    }

    /** Whether the request returned by an op finished (0 = finished in place); frees it then; throws if it failed. */
    public boolean done(String call, long request) {
        return Lib.done(call, request);
    }

    /** Progresses until the request finishes. */
    public void await(String call, long request) {
        while (!Lib.done(call, request)) progress();
    }

    /** Lets a request finish unobserved (a later {@link #flush} covers it). */
    public void release(long request) {
        Lib.release(request);
    }

    /** Ops posted after this take effect at their targets after every op posted before it (ucp_worker_fence). */
    public void fence() { call("ucp_worker_fence", Lib.ucp_worker_fence); }

    /** A ucs_status_t call taking only this worker (inlined where {@code h} is a constant handle). */
    private void call(String name, java.lang.invoke.MethodHandle h) {
        try {
            check(name, (byte) h.invokeExact(handle));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Completes every op this worker posted, at every target. */
    public void flush() {
        try {
            param.set(JAVA_INT, Q_OP_ATTR_MASK, 0);
            await("ucp_worker_flush_nbx", Lib.statusPtr("ucp_worker_flush_nbx",
                    (MemorySegment) Lib.ucp_worker_flush_nbx.invokeExact(handle, param)));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    @Override
    public void close() {
        if (closed) return;
        closed = true;
        try {
            Lib.ucp_worker_destroy.invokeExact(handle);
        } catch (Throwable t) {
            throw rethrow(t);
        }
        arena.close();
    }
}
