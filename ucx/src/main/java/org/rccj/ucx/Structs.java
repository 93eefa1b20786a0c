package org.rccj.ucx;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The libucp structs this binding fills or reads, each named once, field for field as in UCX 1.13's
 * {@code ucp/api/ucp.h} (x86-64 / aarch64 LP64 ABI: natural alignment, padding inserted here by {@link #struct}).
 * {@code StructsProbeTest} compiles a C offsetof/sizeof probe against the installed headers and checks every
 * field of every struct below; {@link Ucx#load} refuses a libucp whose version is outside {@link Ucx#KNOWN_MINOR}.
 * Unions and nested structs that the binding never touches are opaque byte runs of the right size and alignment.
 */
final class Structs {
    private Structs() {}

    private static final ValueLayout.OfInt U32 = JAVA_INT;
    private static final ValueLayout.OfLong U64 = JAVA_LONG;
    private static final AddressLayout PTR = ADDRESS;

    /** ucp_params_t */
    static final StructLayout PARAMS = struct("ucp_params_t",
            U64.withName("field_mask"), U64.withName("features"), U64.withName("request_size"),
            PTR.withName("request_init"), PTR.withName("request_cleanup"), U64.withName("tag_sender_mask"),
            U32.withName("mt_workers_shared"), U64.withName("estimated_num_eps"), U64.withName("estimated_num_ppn"),
            PTR.withName("name"));

    /** ucp_worker_params_t (ucs_cpu_set_t is 1024 bits of unsigned long) */
    static final StructLayout WORKER_PARAMS = struct("ucp_worker_params_t",
            U64.withName("field_mask"), U32.withName("thread_mode"),
            MemoryLayout.sequenceLayout(16, U64).withName("cpu_mask"), U32.withName("events"),
            PTR.withName("user_data"), U32.withName("event_fd"), U64.withName("flags"), PTR.withName("name"),
            U64.withName("am_alignment"), U64.withName("client_id"));

    /** ucp_ep_params_t (ucp_err_handler_t: callback + arg; ucs_sock_addr_t: pointer + socklen_t) */
    static final StructLayout EP_PARAMS = struct("ucp_ep_params_t",
            U64.withName("field_mask"), PTR.withName("address"), U32.withName("err_mode"),
            MemoryLayout.structLayout(PTR, PTR).withName("err_handler"), PTR.withName("user_data"),
            U32.withName("flags"), MemoryLayout.structLayout(PTR, U32, MemoryLayout.paddingLayout(4)).withName("sockaddr"),
            PTR.withName("conn_request"), PTR.withName("name"),
            MemoryLayout.structLayout(PTR, U32, MemoryLayout.paddingLayout(4)).withName("local_sockaddr"));

    /** ucp_mem_map_params_t */
    static final StructLayout MEM_MAP_PARAMS = struct("ucp_mem_map_params_t",
            U64.withName("field_mask"), PTR.withName("address"), U64.withName("length"), U32.withName("flags"),
            U32.withName("prot"), U32.withName("memory_type"));

    /** ucp_mem_attr_t */
    static final StructLayout MEM_ATTR = struct("ucp_mem_attr_t",
            U64.withName("field_mask"), PTR.withName("address"), U64.withName("length"), U32.withName("mem_type"));

    /** ucp_request_param_t: note op_attr_mask is 32-bit, unlike every other field_mask */
    static final StructLayout REQUEST_PARAM = struct("ucp_request_param_t",
            U32.withName("op_attr_mask"), U32.withName("flags"), PTR.withName("request"), PTR.withName("cb"),
            U64.withName("datatype"), PTR.withName("user_data"), PTR.withName("reply_buffer"),
            U32.withName("memory_type"), PTR.withName("recv_info"), PTR.withName("memh"));

    /** ucp_am_handler_param_t */
    static final StructLayout AM_HANDLER_PARAM = struct("ucp_am_handler_param_t",
            U64.withName("field_mask"), U32.withName("id"), U32.withName("flags"), PTR.withName("cb"),
            PTR.withName("arg"));

    /** ucp_am_recv_param_t */
    static final StructLayout AM_RECV_PARAM = struct("ucp_am_recv_param_t",
            U64.withName("recv_attr"), PTR.withName("reply_ep"));

    /** Every struct above, by its C name, for the probe test. */
    static final Map<String, StructLayout> ALL = Map.of(
            "ucp_params_t", PARAMS, "ucp_worker_params_t", WORKER_PARAMS, "ucp_ep_params_t", EP_PARAMS,
            "ucp_mem_map_params_t", MEM_MAP_PARAMS, "ucp_mem_attr_t", MEM_ATTR,
            "ucp_request_param_t", REQUEST_PARAM, "ucp_am_handler_param_t", AM_HANDLER_PARAM,
            "ucp_am_recv_param_t", AM_RECV_PARAM);

    static long offset(StructLayout s, String name) {
        return s.byteOffset(MemoryLayout.PathElement.groupElement(name));
    }

    /** A C struct of these members in order, with the padding natural alignment puts between and after them. */
    static StructLayout struct(String name, MemoryLayout... members) {
        List<MemoryLayout> out = new ArrayList<>();
        long at = 0, maxAlign = 1;
        for (MemoryLayout m : members) {
            long a = m.byteAlignment();
            maxAlign = Math.max(maxAlign, a);
            long pad = (a - at % a) % a;
            if (pad > 0) out.add(MemoryLayout.paddingLayout(pad));
            out.add(m);
            at += pad + m.byteSize();
        }
        long tail = (maxAlign - at % maxAlign) % maxAlign;
        if (tail > 0) out.add(MemoryLayout.paddingLayout(tail));
        return MemoryLayout.structLayout(out.toArray(MemoryLayout[]::new)).withName(name);
    }
}
