package org.rccj.primitives;

import java.util.List;

/**
 * The terms of an op's critical path on the simulator (docs/decisions/0139-critical-path-split.md): from the issuing
 * coroutine's first post of a wait to that coroutine running again after the completion or reply. A fabric that traces
 * paths ({@code sim}) moves each op's mark along with {@link Op#mark}, one term per stretch of time, so the terms of an
 * op add up, in integer ns, to its latency. The index of a term is its position in {@link #TERMS}.
 */
public final class CriticalPath {
    private CriticalPath() {}

    /**
     * One term: its key (summary.json, stages.csv {@code cp_<key>_ns}), what it is, the profile parameters its size
     * comes from (for {@code rcc explain}), and whether it is a wait (queueing: its size is not a parameter's).
     */
    public record Term(String key, String meaning, String params, boolean waits) {}

    public static final int REQUESTER_CPU = 0, LOCAL_CPU = 1, EGRESS = 2, WIRE_OUT = 3, LOOPBACK_OUT = 4, QP_MISS = 5,
            RESPONDER_NIC_WAIT = 6, RESPONDER_NIC = 7, RESPONDER_POLL_WAIT = 8, RPC_DISPATCH = 9, HANDLER = 10,
            REPLY_CPU = 11, EGRESS_BACK = 12, WIRE_BACK = 13, PAYLOAD_BACK = 14, LOOPBACK_BACK = 15,
            LOCAL_ATOMIC_LOOPBACK = 16, RPC_RECEIVE = 17, REQUESTER_NIC_WAIT = 18, INBOX_WAIT = 19, POLL_CPU = 20,
            RESUME_WAIT = 21;

    public static final List<Term> TERMS = List.of(
            new Term("requester_cpu", "requester core: from the coroutine's first post of the wait until this op left the core"
                    + " (one-sided: doorbell + WQEs of the batch; RPC: a UD send per message; and any work between the posts)",
                    "cpu.doorbell_ns, cpu.post_wqe_ns | cpu.rpc_send_ns", false),
            new Term("local_cpu", "local shortcut (own node, local_access: cpu): the memory op or the handler run on the core",
                    "cpu.local_op_ns (+ the handler's CPU)", false),
            new Term("egress", "egress link of the requester NIC: waiting for earlier payload on the link + this payload's serialization",
                    "link.gbps", true),
            new Term("wire_out", "wire, requester NIC to responder NIC", "wire.one_way_ns", false),
            new Term("loopback_out", "through the own NIC to the own node (local_access: network), request leg", "nic.loopback_ns / 2", false),
            new Term("qp_miss", "QP-context cache misses at both ends (expected value)",
                    "nic.qp_miss_latency_ns x 2 x miss fraction (nic.qp_cache_entries)", false),
            new Term("responder_nic_wait", "waiting for the responder NIC's processing units (work that arrived before this op)",
                    "nic.read_mops, nic.write_mops, nic.atomic_mops, nic.recv_ns, nic.wqe_ns, nic.cqe_ns of earlier work", true),
            new Term("responder_nic", "responder NIC execution beyond its start (0 unless a fault splits it; the op's own"
                    + " service time delays only the ops after it)", "fault.torn_line_gap_ns, fault.atomic_gap_ns", false),
            new Term("responder_poll_wait", "RPC: the request waits in the responder's inbox for its poller (the core runs"
                    + " other coroutines or handlers)", "the responder core's other work", true),
            new Term("rpc_dispatch", "RPC: receive and dispatch on the responder core", "cpu.rpc_dispatch_ns", false),
            new Term("handler", "RPC: the handler's own work (tuple ops, loopback atomics, a deferred reply)",
                    "cpu.tuple_op_ns, cpu.local_op_ns, nic.loopback_ns", false),
            new Term("reply_cpu", "RPC: the reply's UD send on the responder core", "cpu.rpc_send_ns", false),
            new Term("egress_back", "RPC: egress link of the responder NIC for the reply (wait + serialization)", "link.gbps", true),
            new Term("wire_back", "wire back: the completion (one-sided) or the reply (RPC)", "wire.one_way_ns", false),
            new Term("payload_back", "one-sided READ: its payload on the link back", "link.gbps", false),
            new Term("loopback_back", "through the own NIC back to the own node (local_access: network)", "nic.loopback_ns / 2", false),
            new Term("local_atomic_loopback", "local shortcut CAS/FAA through the local NIC (incoherent NIC atomics)",
                    "nic.loopback_ns", false),
            new Term("rpc_receive", "RPC: UD receive path, request and reply legs", "wire.rpc_receive_ns x 2", false),
            new Term("requester_nic_wait", "waiting for the requester NIC's processing units before it DMAs the completion"
                    + " (one-sided) or receives the reply (RPC)", "nic.* of the requester NIC's earlier work", true),
            new Term("inbox_wait", "the completion or reply waits in the requester's inbox for its poller (the core runs"
                    + " other coroutines or handlers)", "the requester core's other work", true),
            new Term("poll_cpu", "polling the completion or reply on the requester core", "cpu.poll_cq_ns", false),
            new Term("resume_wait", "waiting until the issuing coroutine runs again: the rest of the poll, the other"
                    + " ready coroutines' turns in the pass, its switch", "cpu.coroutine_switch_ns + other coroutines' work", true));

    /** How many terms there are (Op keeps one field per term). */
    public static final int COUNT = TERMS.size();

    /** The term with key {@code key}, or -1. */
    public static int index(String key) {
        for (int i = 0; i < TERMS.size(); i++) if (TERMS.get(i).key().equals(key)) return i;
        return -1;
    }
}
