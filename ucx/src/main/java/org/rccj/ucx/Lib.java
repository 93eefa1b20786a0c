package org.rccj.ucx;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The downcall handles of the libucp/libucs functions the binding calls (static finals, so the JIT binds them
 * like direct calls). Initialised only by {@link Ucx#load} after the library was found and its version accepted.
 * {@code ucs_status_t} is a one-byte enum; {@code ucs_status_ptr_t} is a pointer that is NULL (done), a request,
 * or an error status in [UCS_ERR_LAST, -1].
 */
final class Lib {
    private Lib() {}

    static void init() {} // touching the class runs its initialiser

    static final byte UCS_OK = 0, UCS_INPROGRESS = 1;
    static final int UCS_ERR_LAST = -100;

    // feature, field and flag bits of ucp.h (1.13)
    static final long FEATURE_RMA = 1L << 1, FEATURE_AMO64 = 1L << 3, FEATURE_WAKEUP = 1L << 4, FEATURE_AM = 1L << 6;
    static final byte UCS_ERR_BUSY = -15;
    static final long PARAM_FIELD_FEATURES = 1L << 0, PARAM_FIELD_MT_WORKERS_SHARED = 1L << 5;
    static final long WORKER_PARAM_FIELD_THREAD_MODE = 1L << 0;
    static final int THREAD_MODE_SERIALIZED = 1;
    static final long EP_PARAM_FIELD_REMOTE_ADDRESS = 1L << 0, EP_PARAM_FIELD_ERR_HANDLING_MODE = 1L << 1;
    static final int ERR_HANDLING_MODE_NONE = 0;
    static final long MEM_MAP_PARAM_FIELD_ADDRESS = 1L << 0, MEM_MAP_PARAM_FIELD_LENGTH = 1L << 1,
            MEM_MAP_PARAM_FIELD_FLAGS = 1L << 2;
    static final int MEM_MAP_ALLOCATE = 1 << 1;
    static final long MEM_ATTR_FIELD_ADDRESS = 1L << 0, MEM_ATTR_FIELD_LENGTH = 1L << 1;
    static final int OP_ATTR_FIELD_DATATYPE = 1 << 3, OP_ATTR_FIELD_FLAGS = 1 << 4,
            OP_ATTR_FIELD_REPLY_BUFFER = 1 << 5;
    static final int AM_SEND_FLAG_REPLY = 1 << 0, AM_SEND_FLAG_EAGER = 1 << 1;
    static final long AM_HANDLER_PARAM_FIELD_ID = 1L << 0, AM_HANDLER_PARAM_FIELD_FLAGS = 1L << 1,
            AM_HANDLER_PARAM_FIELD_CB = 1L << 2, AM_HANDLER_PARAM_FIELD_ARG = 1L << 3;
    static final int AM_FLAG_WHOLE_MSG = 1 << 0;
    static final long AM_RECV_ATTR_FIELD_REPLY_EP = 1L << 0;
    static final int ATOMIC_OP_ADD = 0, ATOMIC_OP_CSWAP = 2;
    /** ucp_dt_make_contig(8): 8-byte elements (UCP_DATATYPE_SHIFT = 3, UCP_DATATYPE_CONTIG = 0) */
    static final long DATATYPE_CONTIG_8 = 8L << 3;

    private static final Linker LINKER = Linker.nativeLinker();

    private static MethodHandle h(SymbolLookup lib, String name, FunctionDescriptor fd, Linker.Option... options) {
        MemorySegment f = lib.find(name).orElseThrow(() -> new UcxException(
                "the UCX library lacks " + name + ": UCX " + Ucx.KNOWN_MAJOR + "." + Ucx.KNOWN_MINOR_MIN + " or newer needed; "
                        + Ucx.INSTALL_HINT));
        return LINKER.downcallHandle(f, fd, options);
    }

    private static MethodHandle ucp(String name, MemoryLayout ret, MemoryLayout... args) {
        return h(Ucx.ucp, name, ret == null ? FunctionDescriptor.ofVoid(args) : FunctionDescriptor.of(ret, args));
    }

    private static final MemoryLayout P = ADDRESS, S = JAVA_BYTE, L = JAVA_LONG, I = JAVA_INT;

    private static MethodHandle critical(String name, MemoryLayout ret, MemoryLayout... args) {
        return h(Ucx.ucp, name, FunctionDescriptor.of(ret, args), Linker.Option.critical(false));
    }

    static final MethodHandle ucs_status_string = h(Ucx.ucs, "ucs_status_string", FunctionDescriptor.of(P, S));
    static final MethodHandle ucp_config_read = ucp("ucp_config_read", S, P, P, P);
    static final MethodHandle ucp_config_modify = ucp("ucp_config_modify", S, P, P, P);
    static final MethodHandle ucp_config_release = ucp("ucp_config_release", null, P);
    static final MethodHandle ucp_init_version = ucp("ucp_init_version", S, I, I, P, P, P);
    static final MethodHandle ucp_cleanup = ucp("ucp_cleanup", null, P);
    static final MethodHandle ucp_context_print_info = ucp("ucp_context_print_info", null, P, P);
    static final MethodHandle ucp_worker_create = ucp("ucp_worker_create", S, P, P, P);
    static final MethodHandle ucp_worker_destroy = ucp("ucp_worker_destroy", null, P);
    static final MethodHandle ucp_worker_get_address = ucp("ucp_worker_get_address", S, P, P, P);
    static final MethodHandle ucp_worker_release_address = ucp("ucp_worker_release_address", null, P, P);
    static final MethodHandle ucp_worker_progress = ucp("ucp_worker_progress", I, P);
    static final MethodHandle ucp_worker_fence = ucp("ucp_worker_fence", S, P);
    static final MethodHandle ucp_worker_flush_nbx = ucp("ucp_worker_flush_nbx", P, P, P);
    static final MethodHandle ucp_worker_set_am_recv_handler = ucp("ucp_worker_set_am_recv_handler", S, P, P);
    static final MethodHandle ucp_ep_create = ucp("ucp_ep_create", S, P, P, P);
    static final MethodHandle ucp_ep_close_nbx = ucp("ucp_ep_close_nbx", P, P, P);
    static final MethodHandle ucp_ep_flush_nbx = ucp("ucp_ep_flush_nbx", L, L, L);
    static final MethodHandle ucp_ep_print_info = ucp("ucp_ep_print_info", null, P, P);
    static final MethodHandle ucp_mem_map = ucp("ucp_mem_map", S, P, P, P);
    static final MethodHandle ucp_mem_unmap = ucp("ucp_mem_unmap", S, P, P);
    static final MethodHandle ucp_mem_query = ucp("ucp_mem_query", S, P, P);
    static final MethodHandle ucp_rkey_pack = ucp("ucp_rkey_pack", S, P, P, P, P);
    static final MethodHandle ucp_rkey_buffer_release = ucp("ucp_rkey_buffer_release", null, P);
    static final MethodHandle ucp_ep_rkey_unpack = ucp("ucp_ep_rkey_unpack", S, P, P, P);
    static final MethodHandle ucp_rkey_destroy = ucp("ucp_rkey_destroy", null, P);
    // the posting calls run no upcall (no completion callbacks are set; AM handlers run only in progress) and
    // return at once: critical downcalls, without the thread-state transition of a regular one. Their pointers
    // (and the returned status pointer) are passed as addresses, longs: a MemorySegment argument of a shared arena
    // (the request parameters, the op buffers) is acquired and released by the linker around every call, two
    // atomic read-modify-writes each; the binding owns those segments for the worker's life (UcxWorker, UcxFabric)
    static final MethodHandle ucp_get_nbx = critical("ucp_get_nbx", L, L, L, L, L, L, L);
    static final MethodHandle ucp_put_nbx = critical("ucp_put_nbx", L, L, L, L, L, L, L);
    static final MethodHandle ucp_atomic_op_nbx = critical("ucp_atomic_op_nbx", L, L, I, L, L, L, L, L);
    static final MethodHandle ucp_am_send_nbx = critical("ucp_am_send_nbx", L, L, I, L, L, L, L, L);
    // sleeping until a message or a signal (UCP_FEATURE_WAKEUP)
    static final MethodHandle ucp_worker_get_efd = ucp("ucp_worker_get_efd", S, P, P);
    static final MethodHandle ucp_worker_arm = ucp("ucp_worker_arm", S, P);
    static final MethodHandle ucp_worker_signal = ucp("ucp_worker_signal", S, P);
    /** libc ppoll(fds, nfds, timeout, sigmask): the wait on a worker's event fd with a ns timeout. */
    static final MethodHandle ppoll = LINKER.downcallHandle(LINKER.defaultLookup().find("ppoll").orElseThrow(),
            FunctionDescriptor.of(I, P, L, P, P));
    static final MethodHandle ucp_request_check_status = h(Ucx.ucp, "ucp_request_check_status",
            FunctionDescriptor.of(S, L), Linker.Option.critical(false));
    static final MethodHandle ucp_request_free = h(Ucx.ucp, "ucp_request_free", FunctionDescriptor.ofVoid(L),
            Linker.Option.critical(false));
    // libc, for ucp_ep_print_info's FILE*
    static final MethodHandle open_memstream = LINKER.downcallHandle(LINKER.defaultLookup().find("open_memstream").orElseThrow(),
            FunctionDescriptor.of(P, P, P));
    static final MethodHandle fclose = LINKER.downcallHandle(LINKER.defaultLookup().find("fclose").orElseThrow(),
            FunctionDescriptor.of(I, P));
    static final MethodHandle free = LINKER.downcallHandle(LINKER.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(P));

    /** What a libucp print function (taking a FILE*) prints, as a string (through open_memstream). */
    static String printed(String call, java.util.function.Consumer<MemorySegment> print) {
        try (java.lang.foreign.Arena a = java.lang.foreign.Arena.ofConfined()) {
            MemorySegment bufp = a.allocate(ADDRESS), sizep = a.allocate(JAVA_LONG);
            MemorySegment file = (MemorySegment) open_memstream.invokeExact(bufp, sizep);
            if (file.address() == 0) throw new UcxException(call + ": open_memstream failed");
            print.accept(file);
            if ((int) fclose.invokeExact(file) != 0) throw new UcxException(call + ": fclose failed");
            MemorySegment buf = bufp.get(ADDRESS, 0).reinterpret(sizep.get(JAVA_LONG, 0) + 1);
            String s = buf.getString(0);
            free.invokeExact(buf);
            return s;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** UCX's words for a status. */
    static String statusString(byte status) {
        try {
            MemorySegment s = (MemorySegment) ucs_status_string.invokeExact(status);
            return s.reinterpret(256).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Throws "call: reason" unless the status is UCS_OK. */
    static void check(String call, byte status) {
        if (status != UCS_OK) throw new UcxException(call + ": " + statusString(status), status);
    }

    /**
     * A ucs_status_ptr_t as a long: 0 when the operation completed in place, the request's address when it is
     * still running (poll it with {@link #done}); an error throws "call: reason".
     */
    static long statusPtr(String call, MemorySegment p) { return statusPtr(call, p.address()); }

    /** As {@link #statusPtr(String, MemorySegment)} for a status pointer returned as an address. */
    static long statusPtr(String call, long v) {
        if (v < 0 && v >= UCS_ERR_LAST) check(call, (byte) v);
        return v;
    }

    /** Whether a request returned by {@link #statusPtr} finished; frees it when it did and throws if it failed. */
    static boolean done(String call, long request) {
        if (request == 0) return true;
        try {
            byte st = (byte) ucp_request_check_status.invokeExact(request);
            if (st == UCS_INPROGRESS) return false;
            ucp_request_free.invokeExact(request);
            check(call, st);
            return true;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Lets a request complete on its own (for ops nobody waits for; a later flush covers them). */
    static void release(long request) {
        if (request == 0) return;
        try {
            ucp_request_free.invokeExact(request);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) throw r;
        if (t instanceof Error e) throw e;
        throw new IllegalStateException(t);
    }
}
