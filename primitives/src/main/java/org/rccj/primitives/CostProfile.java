package org.rccj.primitives;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The cost model of the simulated machine, read from {@code profiles/NAME.properties}. Every figure
 * there names its source (calibration.md): only primitive-level figures, never protocol results.
 */
public final class CostProfile {
    public static final String DEFAULT = "cx4-edr";
    private static final List<String> KNOWN = List.of("cx4-edr", "hades-1us", "hades-2us", "hades-3us");

    public final String name;
    public final String description;
    /** NIC service time per op, ns (1e3 / M ops/s). */
    public final double nicReadNs, nicWriteNs, nicAtomicNs;
    /** NIC time per two-sided message received (request or reply). */
    public final double nicMessageNs;
    /** Link bandwidth, bytes per ns. */
    public final double linkBytesPerNs;
    public final long oneWayNs;
    /** Extra latency of the RPC (UD SEND/RECV) receive path per message. */
    public final long rpcReceiveNs;
    public final long postWqeNs, doorbellNs, pollCqNs, rpcSendNs, rpcDispatchNs, coroutineSwitchNs, localOpNs, tupleOpNs;
    /** Simulator: how far a core may run ahead of the next queued event (not a hardware figure). */
    public final long runAheadNs;
    public final int tornLineBytes;
    public final long tornLineGapNs;

    private CostProfile(String name, Properties p) {
        this.name = name;
        this.description = p.getProperty("description", name);
        nicReadNs = 1e3 / d(p, "nic.read_mops");
        nicWriteNs = 1e3 / d(p, "nic.write_mops");
        nicAtomicNs = 1e3 / d(p, "nic.atomic_mops");
        nicMessageNs = 1e3 / d(p, "nic.message_mops");
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
        tornLineBytes = (int) l(p, "fault.torn_line_bytes");
        runAheadNs = l(p, "sim.run_ahead_ns");
        if (runAheadNs < 0 || runAheadNs >= oneWayNs) throw new IllegalStateException("sim.run_ahead_ns must be in [0, wire.one_way_ns)");
        tornLineGapNs = l(p, "fault.torn_line_gap_ns");
    }

    private static double d(Properties p, String k) {
        String v = p.getProperty(k);
        if (v == null) throw new IllegalStateException("profile lacks " + k);
        return Double.parseDouble(v.trim());
    }

    private static long l(Properties p, String k) { return Math.round(d(p, k)); }

    public static List<String> known() { return KNOWN; }

    public static CostProfile load(String name) {
        if (!KNOWN.contains(name)) {
            throw new IllegalArgumentException("unknown profile '" + name + "' (accepted: " + String.join(", ", KNOWN) + ")");
        }
        try (InputStream in = CostProfile.class.getResourceAsStream("profiles/" + name + ".properties")) {
            if (in == null) throw new IllegalStateException("profile resource missing: " + name);
            Properties p = new Properties();
            p.load(in);
            return new CostProfile(name, p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** NIC service time of one op at its responder, including the payload on the link. */
    public double nicServiceNs(Op op) {
        double base = switch (op.verb) {
            case READ -> nicReadNs;
            case WRITE -> nicWriteNs;
            case CAS, FAA -> nicAtomicNs;
            case RPC -> nicMessageNs;
            case TIMER -> 0;
        };
        return Math.max(base, op.wireBytes() / linkBytesPerNs);
    }

    public static List<String> names() { return new ArrayList<>(KNOWN); }
}
