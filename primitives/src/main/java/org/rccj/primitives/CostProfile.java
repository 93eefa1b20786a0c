package org.rccj.primitives;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * The cost model of the simulated machine: a built-in profile ({@code profiles/NAME.properties}) or a
 * user's file holding the same parameters, optionally starting from a built-in one ({@code base=NAME}).
 * Every figure in a built-in profile names its source (calibration.md): only primitive-level figures,
 * never protocol results. {@link #PARAMETERS} declares every parameter with its accepted range.
 */
public final class CostProfile {
    public static final String DEFAULT = "cx4-edr";
    private static final List<String> KNOWN = List.of("cx4-edr", "cx6-hdr");

    /** A parameter a profile must set, with its accepted range (inclusive). */
    public record Parameter(String key, double min, double max, String meaning) {}

    /** Every parameter, in the order calibration.md lists them. */
    public static final List<Parameter> PARAMETERS = List.of(
            new Parameter("nic.read_mops", 0.001, 1e4, "responder READ rate, M ops/s"),
            new Parameter("nic.write_mops", 0.001, 1e4, "responder WRITE rate, M ops/s"),
            new Parameter("nic.atomic_mops", 0.001, 1e4, "responder CAS/FAA rate, M ops/s"),
            new Parameter("nic.wqe_fetch_ns", 0, 1e4, "NIC time per doorbell: DMA read of the posted WQEs"),
            new Parameter("nic.wqe_ns", 0, 1e4, "requester NIC time per one-sided WQE"),
            new Parameter("nic.cqe_ns", 0, 1e4, "NIC time per completion DMA (signaled ops only)"),
            new Parameter("nic.send_ns", 0, 1e4, "NIC time per two-sided message sent (UD SEND)"),
            new Parameter("nic.recv_ns", 0, 1e4, "NIC time per two-sided message received (UD RECV)"),
            new Parameter("nic.qp_cache_entries", 0, 1e7, "RC QP contexts the NIC caches"),
            new Parameter("nic.qp_miss_ns", 0, 1e5, "NIC processing time per QP-context miss"),
            new Parameter("nic.qp_miss_latency_ns", 0, 1e6, "latency of a QP-context miss (a PCIe round trip)"),
            new Parameter("nic.atomics_coherent", 0, 1, "1 if NIC atomics are atomic with CPU atomics"),
            new Parameter("nic.loopback_ns", 0, 1e5, "latency of an atomic through the local NIC (loopback)"),
            new Parameter("nic.passive_rpc", 0, 1, "1 if an RPC can go without a reply (passive ACK); 0: sent as an ordinary RPC"),
            new Parameter("nic.on_cores", 0, 1, "share of the NIC's processing time taken from the node's worker cores (a soft NIC on the same cores)"),
            new Parameter("link.gbps", 0.1, 1e4, "link bandwidth, Gb/s"),
            new Parameter("wire.rpc_receive_ns", 0, 1e5, "extra receive-path latency per two-sided message"),
            new Parameter("wire.one_way_ns", 1, 1e6, "one-way latency NIC to NIC"),
            new Parameter("cpu.post_wqe_ns", 0, 1e5, "CPU time to build one WQE"),
            new Parameter("cpu.doorbell_ns", 0, 1e5, "CPU time of one MMIO doorbell"),
            new Parameter("cpu.poll_cq_ns", 0, 1e5, "CPU time to poll one completion"),
            new Parameter("cpu.rpc_send_ns", 0, 1e5, "CPU time to post one UD SEND"),
            new Parameter("cpu.rpc_dispatch_ns", 0, 1e5, "CPU time to receive an RPC and dispatch its handler"),
            new Parameter("cpu.coroutine_switch_ns", 0, 1e5, "CPU time per coroutine resume"),
            new Parameter("cpu.local_op_ns", 0, 1e5, "CPU time of a local-shortcut memory op"),
            new Parameter("cpu.tuple_op_ns", 0, 1e5, "CPU time per tuple touched"),
            new Parameter("framework.switch_ns", 0, 1e5, "framework: the coroutine's switch out at a wait (the artifact switches twice per wait; cpu.coroutine_switch_ns is the switch in)"),
            new Parameter("framework.cq_poll_ns", 0, 1e5, "framework: one CQ poll call of the event loop's pass (1 per pass for the UD receive CQ + 1 per pending-QP entry)"),
            new Parameter("framework.scan_slot_ns", 0, 1e5, "framework: one slot of the pass's scans ((coroutines+1) timeout slots + coroutines x nodes 2PC slots)"),
            new Parameter("framework.rmalloc_ns", 0, 1e5, "framework: Rmalloc + Rfree of a one-sided item's buffer"),
            new Parameter("framework.rpc_item_ns", 0, 1e5, "framework: malloc + free of an RPC item's buffer and its std::set insert"),
            new Parameter("framework.rdtsc_ns", 0, 1e5, "framework: one rdtsc (six per fetched item: the stage timers)"),
            new Parameter("framework.write_item_ns", 0, 1e5, "framework: per written item of a write transaction: its value copy and the log's std::set insert"),
            new Parameter("framework.log_copy_ns", 0, 1e5, "framework: per write transaction: the log buffer's copy before the log-ack"),
            new Parameter("framework.ud_send_poll_ns", 0, 1e5, "framework: the synchronous send-CQ poll every 64th UD send (requests and replies)"),
            new Parameter("framework.lock_check_ns", 0, 1e5, "framework: the pass's check of the global lock manager (WAITDIE with RPC locks, SUNDIAL unless all one-sided)"),
            new Parameter("framework.lock_waiter_ns", 0, 1e5, "framework: per waiter parked by the worker's RPC lock handler, walked in every pass of that check"),
            new Parameter("framework.recv_post_ns", 0, 1e5, "framework: one re-post of UD receive buffers (after more than one message consumed since the last)"),
            new Parameter("framework.recv_wr_ns", 0, 1e5, "framework: per receive buffer (WR) of such a re-post"),
            new Parameter("framework.clean_item_ns", 0, 1e5, "framework: a backup's clean_log per applied item beyond cpu.tuple_op_ns (backup checks, CAS lock, seq stores)"),
            new Parameter("location_cache.mb", 0, 1e6, "per-node location cache capacity, MB (0 = unbounded)"),
            new Parameter("fault.torn_line_bytes", 8, 4096, "granularity of torn READs (fault)"),
            new Parameter("fault.torn_line_gap_ns", 0, 1e5, "time between pieces of a torn READ (fault)"),
            new Parameter("fault.atomic_gap_ns", 1, 1e5, "read-to-write gap of an incoherent NIC atomic (fault)"),
            new Parameter("sim.run_ahead_ns", 0, 1e6, "how far a simulated core may run ahead (not hardware)"));

    public final String name;
    public final String description;
    /** Responder NIC time per one-sided op, ns (1e3 / M ops/s). */
    public final double nicReadNs, nicWriteNs, nicAtomicNs;
    /** Requester NIC time: per doorbell (WQE fetch), per WQE, per completion DMA. */
    public final double nicWqeFetchNs, nicWqeNs, nicCqeNs;
    /** NIC time per two-sided message sent / received. */
    public final double nicSendNs, nicRecvNs;
    /** QP-context cache of the NIC: entries, and NIC time of a miss. */
    public final double qpCacheEntries, qpMissNs, qpMissLatencyNs;
    /** False when a NIC atomic is not atomic with a CPU atomic on the same word (ConnectX-3/4). */
    public final boolean nicAtomicsCoherent;
    /** Latency of an atomic through the local NIC (posting CPU waits for it). */
    public final long loopbackNs;
    /** Share of the NIC's processing time that also occupies the node's worker cores (0: a NIC of its own, RDMA). */
    public final double nicOnCores;
    /** False when the fabric has no passive RPCs (its wire carries no such flag): stages send ordinary RPCs instead. */
    public final boolean passiveRpc;
    /** Link bandwidth, bytes per ns. */
    public final double linkBytesPerNs;
    public final long oneWayNs;
    /** Extra latency of the RPC (UD SEND/RECV) receive path per message. */
    public final long rpcReceiveNs;
    public final long postWqeNs, doorbellNs, pollCqNs, rpcSendNs, rpcDispatchNs, coroutineSwitchNs, localOpNs, tupleOpNs;
    /**
     * The artifact's execution framework around every wait, item, write transaction and message ({@code framework.*},
     * docs/calibration.md; all 0: a lean implementation). A profile that omits one has it at 0.
     */
    public final long fwSwitchNs, fwCqPollNs, fwScanSlotNs, fwRmallocNs, fwRpcItemNs, fwRdtscNs, fwWriteItemNs, fwLogCopyNs, fwUdSendPollNs,
            fwLockCheckNs, fwLockWaiterNs, fwRecvPostNs, fwRecvWrNs, fwCleanItemNs;
    /** Prefix of the framework parameters (optional in a profile: absent = 0). */
    public static final String FRAMEWORK_PREFIX = "framework.";
    /** Stage timers per fetched item in the artifact (START/END and CYCLE_START/PAUSE/RESUME/END: six rdtsc). */
    public static final int RDTSC_PER_ITEM = 6;
    /** The artifact's UD send queue polls its send CQ synchronously once every this many sends (ud_msg.cc). */
    public static final int UD_SENDS_PER_POLL = 64;
    /** Location cache per node, bytes (0 = unbounded). */
    public final long locationCacheBytes;
    /** Simulator: how far a core may run ahead of the next queued event (not a hardware figure). */
    public final long runAheadNs;
    public final int tornLineBytes;
    public final long tornLineGapNs;
    public final long atomicGapNs;
    /** CPU time of a workload's own logic per transaction type, ns ({@code logic_ns.WORKLOAD.TYPE}, lower case). */
    private final Map<String, Long> logicNs = new LinkedHashMap<>();
    /** Every parameter of {@link #PARAMETERS} as the profile states it (for reports: {@link #value}). */
    private final Map<String, String> values = new LinkedHashMap<>();

    /** Prefix of the per-transaction-type logic costs; the range every such figure must be in. */
    public static final String LOGIC_PREFIX = "logic_ns.";
    public static final double LOGIC_MAX_NS = 1e8;

    private CostProfile(String name, Properties given) {
        this.name = name;
        Properties p = new Properties();
        p.putAll(given);
        for (Parameter q : PARAMETERS) if (q.key().startsWith(FRAMEWORK_PREFIX) && p.getProperty(q.key()) == null) p.setProperty(q.key(), "0");
        this.description = p.getProperty("description", name);
        for (Parameter q : PARAMETERS) {
            double v = d(p, q.key());
            if (!(v >= q.min() && v <= q.max())) {
                throw new IllegalArgumentException("profile " + name + ": " + q.key() + "=" + p.getProperty(q.key()).trim()
                        + " is out of range [" + fmt(q.min()) + ", " + fmt(q.max()) + "] (" + q.meaning() + ")");
            }
        }
        for (Parameter q : PARAMETERS) values.put(q.key(), p.getProperty(q.key()).trim());
        for (String k : p.stringPropertyNames()) {
            if (k.equals("description") || k.equals("base")) continue;
            if (k.startsWith(LOGIC_PREFIX)) {
                String[] parts = k.substring(LOGIC_PREFIX.length()).split("\\.", -1);
                if (parts.length != 2 || parts[0].isEmpty() || parts[1].isEmpty() || !k.equals(k.toLowerCase(java.util.Locale.ROOT))) {
                    throw new IllegalArgumentException("profile " + name + ": '" + k + "' is not " + LOGIC_PREFIX + "WORKLOAD.TYPE in lower case");
                }
                double v = d(p, k);
                if (!(v >= 0 && v <= LOGIC_MAX_NS)) {
                    throw new IllegalArgumentException("profile " + name + ": " + k + "=" + p.getProperty(k).trim() + " is out of range [0, "
                            + fmt(LOGIC_MAX_NS) + "] (CPU time of the workload's logic per transaction, ns)");
                }
                logicNs.put(k, Math.round(v));
                continue;
            }
            if (PARAMETERS.stream().noneMatch(q -> q.key().equals(k))) {
                throw new IllegalArgumentException("profile " + name + ": unknown parameter '" + k + "' (see docs/calibration.md)");
            }
        }
        nicReadNs = 1e3 / d(p, "nic.read_mops");
        nicWriteNs = 1e3 / d(p, "nic.write_mops");
        nicAtomicNs = 1e3 / d(p, "nic.atomic_mops");
        nicWqeFetchNs = d(p, "nic.wqe_fetch_ns");
        nicWqeNs = d(p, "nic.wqe_ns");
        nicCqeNs = d(p, "nic.cqe_ns");
        nicSendNs = d(p, "nic.send_ns");
        nicRecvNs = d(p, "nic.recv_ns");
        qpCacheEntries = d(p, "nic.qp_cache_entries");
        qpMissNs = d(p, "nic.qp_miss_ns");
        qpMissLatencyNs = d(p, "nic.qp_miss_latency_ns");
        nicAtomicsCoherent = d(p, "nic.atomics_coherent") != 0;
        loopbackNs = l(p, "nic.loopback_ns");
        nicOnCores = d(p, "nic.on_cores");
        passiveRpc = d(p, "nic.passive_rpc") != 0;
        linkBytesPerNs = d(p, "link.gbps") / 8.0;
        oneWayNs = l(p, "wire.one_way_ns");
        rpcReceiveNs = l(p, "wire.rpc_receive_ns");
        postWqeNs = l(p, "cpu.post_wqe_ns");
        doorbellNs = l(p, "cpu.doorbell_ns");
        pollCqNs = l(p, "cpu.poll_cq_ns");
        rpcSendNs = l(p, "cpu.rpc_send_ns");
        rpcDispatchNs = l(p, "cpu.rpc_dispatch_ns");
        coroutineSwitchNs = l(p, "cpu.coroutine_switch_ns");
        localOpNs = l(p, "cpu.local_op_ns");
        tupleOpNs = l(p, "cpu.tuple_op_ns");
        fwSwitchNs = l(p, "framework.switch_ns");
        fwCqPollNs = l(p, "framework.cq_poll_ns");
        fwScanSlotNs = l(p, "framework.scan_slot_ns");
        fwRmallocNs = l(p, "framework.rmalloc_ns");
        fwRpcItemNs = l(p, "framework.rpc_item_ns");
        fwRdtscNs = l(p, "framework.rdtsc_ns");
        fwWriteItemNs = l(p, "framework.write_item_ns");
        fwLogCopyNs = l(p, "framework.log_copy_ns");
        fwUdSendPollNs = l(p, "framework.ud_send_poll_ns");
        fwLockCheckNs = l(p, "framework.lock_check_ns");
        fwLockWaiterNs = l(p, "framework.lock_waiter_ns");
        fwRecvPostNs = l(p, "framework.recv_post_ns");
        fwRecvWrNs = l(p, "framework.recv_wr_ns");
        fwCleanItemNs = l(p, "framework.clean_item_ns");
        locationCacheBytes = Math.round(d(p, "location_cache.mb") * 1024 * 1024);
        tornLineBytes = (int) l(p, "fault.torn_line_bytes");
        runAheadNs = l(p, "sim.run_ahead_ns");
        if (runAheadNs >= oneWayNs) {
            throw new IllegalArgumentException("profile " + name + ": sim.run_ahead_ns must be below wire.one_way_ns (" + oneWayNs + ")");
        }
        if (runAheadNs >= loopbackNs / 2) {
            // local_access: network sends ops and messages to the own node one loopback leg away
            throw new IllegalArgumentException("profile " + name + ": sim.run_ahead_ns must be below half of nic.loopback_ns (" + loopbackNs / 2 + ")");
        }
        tornLineGapNs = l(p, "fault.torn_line_gap_ns");
        atomicGapNs = l(p, "fault.atomic_gap_ns");
    }

    private static String fmt(double v) { return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v); }

    private static double d(Properties p, String k) {
        String v = p.getProperty(k);
        if (v == null) throw new IllegalArgumentException("profile lacks " + k);
        try {
            return Double.parseDouble(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("profile parameter " + k + "='" + v.trim() + "' is not a number");
        }
    }

    private static long l(Properties p, String k) { return Math.round(d(p, k)); }

    /**
     * CPU time of {@code workload}'s own logic for one transaction of {@code type} (the profile's
     * {@code logic_ns.WORKLOAD.TYPE}, names in lower case), or -1 if the profile has no figure for it.
     */
    public long logicNs(String workload, String type) {
        Long v = logicNs.get(LOGIC_PREFIX + workload.toLowerCase(java.util.Locale.ROOT) + "." + type.toLowerCase(java.util.Locale.ROOT));
        return v == null ? -1 : v;
    }

    /** The built-in profile names. */
    public static List<String> known() { return KNOWN; }

    /** Whether a profile that is not built in is meant as a file (a path or a file name), not a misspelled name. */
    public static boolean looksLikeFile(String spec) {
        return spec.contains("/") || spec.contains(java.io.File.separator) || spec.contains(".");
    }

    /** True if {@code spec} names a built-in profile or looks like a path to a profile file. */
    public static boolean isBuiltIn(String spec) { return KNOWN.contains(spec); }

    /**
     * A built-in profile by name, or a profile file by path. A file holds {@code key=value} lines
     * (Java properties) with the parameters of {@link #PARAMETERS}; {@code base=NAME} starts from a
     * built-in profile, whose values the file overrides. Unknown or out-of-range parameters, and a
     * missing file, raise {@link IllegalArgumentException} naming them.
     */
    public static CostProfile load(String spec) {
        if (KNOWN.contains(spec)) return new CostProfile(spec, builtIn(spec));
        Path path = Path.of(spec);
        if (!Files.isRegularFile(path)) {
            if (Files.isDirectory(path)) throw new IllegalArgumentException("profile file '" + spec + "' is a directory; give a profile file");
            if (looksLikeFile(spec)) {
                throw new IllegalArgumentException("profile file '" + spec + "' not found (no such file); give an existing file (e.g. one"
                        + " written by rcc calibrate) or a built-in profile: " + String.join(", ", KNOWN));
            }
            throw new IllegalArgumentException("unknown profile '" + spec + "' (accepted: " + String.join(", ", KNOWN)
                    + ", or the path of a profile file)");
        }
        Properties file = new Properties();
        try (Reader r = Files.newBufferedReader(path)) {
            file.load(r);
        } catch (IOException | IllegalArgumentException e) {
            throw new IllegalArgumentException("profile file " + spec + " cannot be read: " + e.getMessage());
        }
        Properties p = new Properties();
        String base = file.getProperty("base");
        if (base != null) {
            base = base.trim();
            if (!KNOWN.contains(base)) {
                throw new IllegalArgumentException("profile file " + spec + ": base=" + base + " is not a built-in profile (accepted: "
                        + String.join(", ", KNOWN) + ")");
            }
            p.putAll(builtIn(base));
        }
        p.putAll(file);
        return new CostProfile(spec, p);
    }

    private static Properties builtIn(String name) {
        try (InputStream in = CostProfile.class.getResourceAsStream("profiles/" + name + ".properties")) {
            if (in == null) throw new IllegalStateException("profile resource missing: " + name);
            Properties p = new Properties();
            p.load(in);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parameter {@code key}'s value as the profile states it (for reports), or null for an unknown key. */
    public String value(String key) { return values.get(key); }

    /** Every parameter's value as the profile file states it (for reports). */
    public static Map<String, String> parameters(String spec) {
        Properties p = KNOWN.contains(spec) ? builtIn(spec) : new Properties();
        Map<String, String> m = new LinkedHashMap<>();
        for (Parameter q : PARAMETERS) m.put(q.key(), p.getProperty(q.key(), "").trim());
        p.stringPropertyNames().stream().filter(k -> k.startsWith(LOGIC_PREFIX)).sorted().forEach(k -> m.put(k, p.getProperty(k).trim()));
        return m;
    }

    /** Responder NIC time of one one-sided op, including its payload on the link. */
    public double nicServiceNs(Op op) {
        double base = switch (op.verb) {
            case READ -> nicReadNs;
            case WRITE -> nicWriteNs;
            case CAS, FAA -> nicAtomicNs;
            case RPC -> nicRecvNs;
            case TIMER -> 0;
        };
        return Math.max(base, op.wireBytes() / linkBytesPerNs);
    }

    /**
     * Expected fraction of one-sided ops that miss the NIC's QP-context cache when {@code qps} RC QPs
     * are in use and accessed uniformly: 1 - capacity / qps (0 while they fit).
     */
    public double qpMissFraction(long qps) {
        if (qps <= qpCacheEntries || qps == 0) return 0;
        return 1 - qpCacheEntries / qps;
    }

    public static List<String> names() { return new ArrayList<>(KNOWN); }
}
