package org.rccj.primitives;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The terms of an op's critical path on the simulator (docs/decisions/0139-critical-path-split.md): from the issuing
 * coroutine's first post of a wait to that coroutine running again after the completion or reply. A fabric that traces
 * paths ({@code sim}, unless {@code sim.critical_path: false}) offers a {@link PathTrace}: it moves each op's mark
 * along, one term per stretch of time, so the terms of an op add up, in integer ns, to its latency. A term's storage
 * (the engine's, per op) is indexed by its {@link #ordinal()}; its key names it in summary.json and stages.csv
 * ({@code cp_<key>_ns}).
 */
public enum CriticalPath {
    REQUESTER_CPU("requester core: from the coroutine's first post of the wait until this op left the core (one-sided: doorbell + WQEs of the batch; RPC: a UD send per message; and any work between the posts)",
            "cpu.doorbell_ns, cpu.post_wqe_ns | cpu.rpc_send_ns", false),
    LOCAL_CPU("local shortcut (own node, local_access: cpu): the memory op or the handler run on the core",
            "cpu.local_op_ns (+ the handler's CPU)", false),
    EGRESS("egress link of the requester NIC: waiting for earlier payload on the link + this payload's serialization",
            "link.gbps", true),
    WIRE_OUT("wire, requester NIC to responder NIC",
            "wire.one_way_ns", false),
    LOOPBACK_OUT("through the own NIC to the own node (local_access: network), request leg",
            "nic.loopback_ns / 2", false),
    QP_MISS("QP-context cache misses at both ends (expected value)",
            "nic.qp_miss_latency_ns x 2 x miss fraction (nic.qp_cache_entries)", false),
    RESPONDER_NIC_WAIT("waiting for the responder NIC's processing units (work that arrived before this op)",
            "nic.read_mops, nic.write_mops, nic.atomic_mops, nic.recv_ns, nic.wqe_ns, nic.cqe_ns of earlier work", true),
    RESPONDER_NIC("responder NIC execution beyond its start (0 unless a fault splits it; the op's own service time delays only the ops after it)",
            "fault.torn_line_gap_ns, fault.atomic_gap_ns", false),
    RESPONDER_POLL_WAIT("RPC: the request waits in the responder's inbox for its poller (the core runs other coroutines or handlers)",
            "the responder core's other work", true),
    RPC_DISPATCH("RPC: receive and dispatch on the responder core",
            "cpu.rpc_dispatch_ns", false),
    HANDLER("RPC: the handler's own work (tuple ops, loopback atomics, a deferred reply)",
            "cpu.tuple_op_ns, cpu.local_op_ns, nic.loopback_ns", false),
    REPLY_CPU("RPC: the reply's UD send on the responder core",
            "cpu.rpc_send_ns", false),
    EGRESS_BACK("RPC: egress link of the responder NIC for the reply (wait + serialization)",
            "link.gbps", true),
    WIRE_BACK("wire back: the completion (one-sided) or the reply (RPC)",
            "wire.one_way_ns", false),
    PAYLOAD_BACK("one-sided READ: its payload on the link back",
            "link.gbps", false),
    LOOPBACK_BACK("through the own NIC back to the own node (local_access: network)",
            "nic.loopback_ns / 2", false),
    LOCAL_ATOMIC_LOOPBACK("local shortcut CAS/FAA through the local NIC (incoherent NIC atomics)",
            "nic.loopback_ns", false),
    RPC_RECEIVE("RPC: UD receive path, request and reply legs",
            "wire.rpc_receive_ns x 2", false),
    REQUESTER_NIC_WAIT("waiting for the requester NIC's processing units before it DMAs the completion (one-sided) or receives the reply (RPC)",
            "nic.* of the requester NIC's earlier work", true),
    INBOX_WAIT("the completion or reply waits in the requester's inbox for its poller (the core runs other coroutines or handlers)",
            "the requester core's other work", true),
    POLL_CPU("polling the completion or reply on the requester core",
            "cpu.poll_cq_ns", false),
    RESUME_WAIT("waiting until the issuing coroutine runs again: the rest of the poll, the other ready coroutines' turns in the pass, its switch",
            "cpu.coroutine_switch_ns + other coroutines' work", true);

    private final String meaning, params;
    private final boolean waits;

    CriticalPath(String meaning, String params, boolean waits) {
        this.meaning = meaning;
        this.params = params;
        this.waits = waits;
    }

    /** The key in summary.json and stages.csv ({@code cp_<key>_ns}): the name in lower case. */
    public String key() { return name().toLowerCase(java.util.Locale.ROOT); }
    /** What the term is. */
    public String meaning() { return meaning; }
    /** The profile parameters its size comes from (for {@code rcc explain}). */
    public String params() { return params; }
    /** Whether it is a wait (queueing: its size is not a parameter's). */
    public boolean waits() { return waits; }

    /** Every term in ordinal order. */
    public static final List<CriticalPath> TERMS = List.of(values());
    /** How many terms there are (the size of an op's storage). */
    public static final int COUNT = TERMS.size();
    private static final Map<String, CriticalPath> BY_KEY = new HashMap<>();
    static {
        for (CriticalPath t : TERMS) BY_KEY.put(t.key(), t);
    }

    /** The term with key {@code key}, or null. */
    public static CriticalPath of(String key) { return BY_KEY.get(key); }
}
