package org.rccj.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.rccj.ucx.Lib.check;
import static org.rccj.ucx.Lib.rethrow;

/**
 * A UCP context (one per process): RMA, 64-bit atomics and active messages, workers not shared between threads.
 * Maps registered memory ({@link #map}); makes workers ({@link #newWorker}).
 */
public final class UcxContext implements AutoCloseable {
    private static final long P_FIELD_MASK = Structs.offset(Structs.PARAMS, "field_mask"),
            P_FEATURES = Structs.offset(Structs.PARAMS, "features"),
            P_MT_SHARED = Structs.offset(Structs.PARAMS, "mt_workers_shared");
    private static final long M_FIELD_MASK = Structs.offset(Structs.MEM_MAP_PARAMS, "field_mask"),
            M_ADDRESS = Structs.offset(Structs.MEM_MAP_PARAMS, "address"),
            M_LENGTH = Structs.offset(Structs.MEM_MAP_PARAMS, "length"),
            M_FLAGS = Structs.offset(Structs.MEM_MAP_PARAMS, "flags");
    private static final long A_FIELD_MASK = Structs.offset(Structs.MEM_ATTR, "field_mask"),
            A_ADDRESS = Structs.offset(Structs.MEM_ATTR, "address"),
            A_LENGTH = Structs.offset(Structs.MEM_ATTR, "length");

    final MemorySegment handle;
    private boolean closed;

    UcxContext(Map<String, String> config) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cfgp = a.allocate(ADDRESS);
            check("ucp_config_read", (byte) Lib.ucp_config_read.invokeExact(MemorySegment.NULL, MemorySegment.NULL, cfgp));
            MemorySegment cfg = cfgp.get(ADDRESS, 0);
            try {
                for (Map.Entry<String, String> e : config.entrySet())
                    check("ucp_config_modify(" + e.getKey() + "=" + e.getValue() + ")", (byte) Lib.ucp_config_modify
                            .invokeExact(cfg, a.allocateFrom(e.getKey()), a.allocateFrom(e.getValue())));
                MemorySegment params = a.allocate(Structs.PARAMS);
                params.set(JAVA_LONG, P_FIELD_MASK, Lib.PARAM_FIELD_FEATURES | Lib.PARAM_FIELD_MT_WORKERS_SHARED);
                // WAKEUP: an idle worker sleeps on its event fd and wakes when a message arrives (UcxWorker#sleep)
                params.set(JAVA_LONG, P_FEATURES, Lib.FEATURE_RMA | Lib.FEATURE_AMO64 | Lib.FEATURE_AM | Lib.FEATURE_WAKEUP);
                params.set(JAVA_INT, P_MT_SHARED, 0);
                MemorySegment ctxp = a.allocate(ADDRESS);
                check("ucp_init", (byte) Lib.ucp_init_version.invokeExact(Ucx.API_MAJOR, Ucx.API_MINOR, params, cfg, ctxp));
                handle = ctxp.get(ADDRESS, 0);
            } finally {
                Lib.ucp_config_release.invokeExact(cfg);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** What ucp_context_print_info prints: the memory domains and transports this context may use. */
    public String info() {
        return Lib.printed("ucp_context_print_info", f -> {
            try {
                Lib.ucp_context_print_info.invokeExact(handle, f);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        });
    }

    /** A worker for one thread at a time (created here, then used by the thread that polls it). */
    public UcxWorker newWorker() {
        return new UcxWorker(this);
    }

    /**
     * {@code bytes} of zeroed memory allocated by UCX (UCP_MEM_MAP_ALLOCATE), so a peer on the same host maps it
     * and one-sided ops need no code at this end; unmapped when {@code owner} closes.
     */
    public UcxMemory map(long bytes, Arena owner) {
        if (bytes <= 0) throw new IllegalArgumentException("map: bytes must be positive, got " + bytes);
        try (Arena a = Arena.ofConfined()) {
            MemorySegment params = a.allocate(Structs.MEM_MAP_PARAMS);
            params.set(JAVA_LONG, M_FIELD_MASK, Lib.MEM_MAP_PARAM_FIELD_ADDRESS | Lib.MEM_MAP_PARAM_FIELD_LENGTH
                    | Lib.MEM_MAP_PARAM_FIELD_FLAGS);
            params.set(ADDRESS, M_ADDRESS, MemorySegment.NULL);
            params.set(JAVA_LONG, M_LENGTH, bytes);
            params.set(JAVA_INT, M_FLAGS, Lib.MEM_MAP_ALLOCATE);
            MemorySegment memhp = a.allocate(ADDRESS);
            check("ucp_mem_map(" + bytes + " bytes)", (byte) Lib.ucp_mem_map.invokeExact(handle, params, memhp));
            MemorySegment memh = memhp.get(ADDRESS, 0);
            MemorySegment attr = a.allocate(Structs.MEM_ATTR);
            attr.set(JAVA_LONG, A_FIELD_MASK, Lib.MEM_ATTR_FIELD_ADDRESS | Lib.MEM_ATTR_FIELD_LENGTH);
            check("ucp_mem_query", (byte) Lib.ucp_mem_query.invokeExact(memh, attr));
            long address = attr.get(ADDRESS, A_ADDRESS).address();
            MemorySegment seg = MemorySegment.ofAddress(address).reinterpret(bytes, owner, s -> unmap(memh));
            seg.fill((byte) 0);
            MemorySegment rkp = a.allocate(ADDRESS), rks = a.allocate(JAVA_LONG);
            check("ucp_rkey_pack", (byte) Lib.ucp_rkey_pack.invokeExact(handle, memh, rkp, rks));
            MemorySegment rk = rkp.get(ADDRESS, 0).reinterpret(rks.get(JAVA_LONG, 0));
            byte[] rkey = rk.toArray(JAVA_BYTE);
            Lib.ucp_rkey_buffer_release.invokeExact(rk);
            return new UcxMemory(seg, rkey);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private void unmap(MemorySegment memh) {
        try {
            check("ucp_mem_unmap", (byte) Lib.ucp_mem_unmap.invokeExact(handle, memh));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Ends the context; its workers and memory must be gone first. */
    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            Lib.ucp_cleanup.invokeExact(handle);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
