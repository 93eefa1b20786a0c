package org.rccj.experiments.calibrate;

import java.net.InetAddress;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.rccj.fabrics.bench.PrimitiveBench;
import org.rccj.fabrics.bench.PrimitiveBench.Pattern;
import org.rccj.fabrics.bench.PrimitiveBench.Result;
import org.rccj.fabrics.bench.PrimitiveBench.Scenario;
import org.rccj.framework.coro.Coroutine;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Verb;

/**
 * {@code rcc calibrate}: measures the primitives on a real fabric and fits a cost profile for {@code sim} to them
 * (docs/calibration.md, "Calibrating on your own fabric"). Primitive level only: every fitted parameter is moved until
 * the simulator's own run of the same micro-benchmark gives the figure measured on the fabric; no protocol runs.
 *
 * <p>What is fitted, and to which measurement (2 nodes, node 1's coroutines against node 0, 64 B):
 * <ul>
 *   <li>{@code wire.one_way_ns}: READ round trip mean, 1 coroutine, both nodes issuing (additive: half the gap per round);
 *   <li>{@code wire.rpc_receive_ns}: RPC round trip mean incl. handler, as above;
 *   <li>{@code nic.read_mops}, {@code nic.write_mops}, {@code nic.atomic_mops}: READ, WRITE, CAS peak with 32
 *       coroutines per thread at node 0 (scaled by measured / simulated);
 *   <li>{@code cpu.rpc_dispatch_ns} with {@code cpu.rpc_send_ns} in the base's proportion: RPC peak;
 *   <li>{@code cpu.coroutine_switch_ns}: measured directly (resume + suspend of a {@link Coroutine} on this core).
 * </ul>
 * A fabric whose NIC is software ({@link Fabric#softNic}) has its two-sided message and requester NIC times derived
 * from the READ rate (a soft NIC serves a READ as one message in and one out) and coherent atomics; everything else
 * keeps the base profile's value and the profile says so.
 */
public final class Calibration {
    /** The fabric measured: its name, how its NIC works, and how to run one scenario on it. */
    /**
     * @param nicThreads threads per node that do the NIC's work (tcp: its network thread); 0 when the issuing worker
     *        does it itself (local)
     */
    /**
     * @param localOps times a local 8-byte CAS and READ on this fabric's own registered memory ({@link LogicCosts#localOpNs})
     */
    public record Fabric(String name, String transport, boolean softNic, int nicThreads, boolean passiveRpc, Function<Scenario, Result> measure,
            java.util.function.Supplier<double[]> localOps) {}

    /** One line of the report: a figure measured, the simulator's figure with the fitted profile, and the parameter it fitted. */
    public record Figure(String name, double measured, double sim, String unit, String parameter, String note) {
        Figure(String name, double measured, double sim, String unit, String parameter) { this(name, measured, sim, unit, parameter, ""); }
        public double error() { return measured == 0 ? Double.NaN : sim / measured - 1; }

        /**
         * A fitted parameter that ended at one of its bounds could not move the simulator's figure further: the note says
         * so, e.g. a round trip below what the profile's measured CPU costs already add up to on a loaded host.
         */
        Figure withBoundNote(Map<String, Double> p) {
            for (String k : parameter.split(", ")) {
                if (k.startsWith("(") || !p.containsKey(k)) continue;
                for (CostProfile.Parameter q : CostProfile.PARAMETERS) {
                    if (!q.key().equals(k)) continue;
                    double v = p.get(k);
                    double floor = k.equals("nic.loopback_ns") ? LOOPBACK_FLOOR_NS : q.min();
                    if (v <= floor || v >= q.max()) {
                        String which = v <= floor ? "floor" : "ceiling";
                        return new Figure(name, measured, sim, unit, parameter, String.format(Locale.ROOT, "(the fit stopped at %s's %s %s)", k, which,
                                format(Map.of(k, v)).get(k)));
                    }
                }
            }
            return this;
        }
    }

    /** The outcome: the profile text, the figures and the parameters kept from the base (with the reason). */
    public record Outcome(String profileText, List<Figure> figures, Map<String, String> kept, Map<String, String> values) {}

    /** The fitted loopback latency's floor: the simulator's run-ahead bound (>= 0) must stay below half of it. */
    static final double LOOPBACK_FLOOR_NS = 2;

    static final int PAYLOAD = 64, PEAK_COROUTINES = 32, MANY_COROUTINES = 8, BATCH = 8, ROUNDS = 6, REPEATS = 3;

    private final Fabric fabric;
    private final String base;
    private final int threads;
    private final java.io.PrintStream progress;
    private final long cpuWindowNs;
    private boolean issuingBusyMeasured;
    private final Map<String, String> measuredHow = new LinkedHashMap<>();

    /** {@code cpuWindowNs}: the CPU-time window of each timed CPU cost ({@link LogicCosts}). */
    public Calibration(Fabric fabric, String base, int threads, long cpuWindowNs, java.io.PrintStream progress) {
        this.fabric = fabric;
        this.cpuWindowNs = cpuWindowNs;
        this.base = base;
        this.threads = threads;
        this.progress = progress;
    }

    private Scenario scenario(Verb v, int coroutines, int batch) {
        return new Scenario(v.name(), v, PAYLOAD, 2, threads, coroutines, batch, false, false, Pattern.TO_NODE0);
    }

    /**
     * The scenario measured {@link #REPEATS} times: the run with the median of the scenario's figure (mean round trip
     * for one coroutine, else the rate). A loaded host stalls a thread for milliseconds now and then; one stall in a
     * window moves its mean round trip by tens of percent, the median run is the typical one.
     */
    private Result real(String what, Scenario s) {
        progress.println("calibrate: measuring " + what + " on " + fabric.name() + " (" + REPEATS + " runs)");
        List<Result> rs = new ArrayList<>();
        for (int i = 0; i < REPEATS; i++) rs.add(fabric.measure().apply(s));
        rs.sort(java.util.Comparator.comparingDouble(r -> s.coroutines() == 1 ? r.meanUs() : r.mopsPerMachine()));
        return rs.get(rs.size() / 2);
    }

    public Outcome run() {
        Map<String, String> baseValues = CostProfile.parameters(base);
        Map<String, Double> p = new LinkedHashMap<>();
        for (CostProfile.Parameter q : CostProfile.PARAMETERS) p.put(q.key(), Double.parseDouble(baseValues.get(q.key())));

        Scenario readRt = scenario(Verb.READ, 1, 1), rpcRt = scenario(Verb.RPC, 1, 1), writeRt = scenario(Verb.WRITE, 1, 1),
                casRt = scenario(Verb.CAS, 1, 1);
        Scenario readPk = scenario(Verb.READ, PEAK_COROUTINES, 1), writePk = scenario(Verb.WRITE, PEAK_COROUTINES, 1),
                casPk = scenario(Verb.CAS, PEAK_COROUTINES, 1), rpcPk = scenario(Verb.RPC, PEAK_COROUTINES, 1),
                batchPk = scenario(Verb.READ, PEAK_COROUTINES, BATCH);
        Result mReadRt = real("READ round trip", readRt), mRpcRt = real("RPC round trip", rpcRt);
        Result mWriteRt = real("WRITE round trip", writeRt), mCasRt = real("CAS round trip", casRt);
        Result mReadPk = real("READ peak", readPk), mWritePk = real("WRITE peak", writePk);
        Result mCasPk = real("CAS peak", casPk), mRpcPk = real("RPC peak", rpcPk);
        Result mBatchPk = real("READ peak, " + BATCH + " per doorbell", batchPk);
        // a protocol uses the fabric symmetrically (every node coordinates and serves): the round trips are fitted with
        // both nodes issuing, where a soft NIC's threads and the workers wait for each other's cores
        Scenario readRtBoth = new Scenario("READ", Verb.READ, PAYLOAD, 2, threads, 1, 1, false, false, Pattern.ALL_TO_ALL);
        Scenario rpcRtBoth = new Scenario("RPC", Verb.RPC, PAYLOAD, 2, threads, 1, 1, false, false, Pattern.ALL_TO_ALL);
        Result mReadRtBoth = real("READ round trip, both nodes issuing", readRtBoth);
        Result mRpcRtBoth = real("RPC round trip, both nodes issuing", rpcRtBoth);
        // several requests outstanding per worker, as a protocol with coroutines has them: whether the round trip grows
        // with them as on the fabric (a check of the fitted profile, not fitted: see docs/calibration.md)
        Scenario readRtMany = new Scenario("READ", Verb.READ, PAYLOAD, 2, threads, MANY_COROUTINES, 1, false, false, Pattern.ALL_TO_ALL);
        Scenario rpcRtMany = new Scenario("RPC", Verb.RPC, PAYLOAD, 2, threads, MANY_COROUTINES, 1, false, false, Pattern.ALL_TO_ALL);
        Result mReadRtMany = real("READ round trip, " + MANY_COROUTINES + " coroutines, both nodes issuing", readRtMany);
        // to the worker's own node as local_access: network sends it (RCC's default): the RPC fits the loopback
        // latency, the READ is a check (on these fabrics the worker does an own-node one-sided op itself)
        Scenario rpcOwn = new Scenario("RPC", Verb.RPC, PAYLOAD, 2, threads, 1, 1, false, false, Pattern.OWN_NODE);
        Scenario readOwn = new Scenario("READ", Verb.READ, PAYLOAD, 2, threads, 1, 1, false, false, Pattern.OWN_NODE);
        Result mRpcOwn = real("RPC round trip to the own node", rpcOwn), mReadOwn = real("READ round trip to the own node", readOwn);
        Result mRpcRtMany = real("RPC round trip, " + MANY_COROUTINES + " coroutines, both nodes issuing", rpcRtMany);
        double switchNs = coroutineSwitchNs();
        p.put("cpu.coroutine_switch_ns", (double) Math.round(switchNs * 10) / 10);
        List<Figure> cpuFigures = cpuCosts(p);

        // the slowest measured round trip sets the simulator's windows: enough operations for a stable p50 and peak
        double rtNs = Math.max(mReadRtBoth.meanUs(), mRpcRtBoth.meanUs()) * 1e3;
        long warm = Math.max(20_000, Math.round(20 * rtNs)), measure = Math.max(200_000, Math.round(300 * rtNs));
        double sendShare = p.get("cpu.rpc_send_ns") / Math.max(1e-9, p.get("cpu.rpc_send_ns") + p.get("cpu.rpc_dispatch_ns"));
        // start from the direct estimates (a parameter that does not bind yet would move too slowly by ratios alone)
        if (fabric.softNic()) {
            p.put("nic.wqe_fetch_ns", clamp("nic.wqe_fetch_ns", 1e3 / mReadPk.mopsPerMachine()));
            p.put("nic.read_mops", clamp("nic.read_mops", mBatchPk.mopsPerMachine()));
        } else {
            p.put("nic.read_mops", clamp("nic.read_mops", mReadPk.mopsPerMachine()));
            p.put("nic.write_mops", clamp("nic.write_mops", mWritePk.mopsPerMachine()));
            p.put("nic.atomic_mops", clamp("nic.atomic_mops", mCasPk.mopsPerMachine()));
        }
        double postShare = p.get("cpu.post_wqe_ns") / Math.max(1e-9, p.get("cpu.post_wqe_ns") + p.get("cpu.poll_cq_ns"));
        // a worker whose ops complete before it yields never ends a busy pass inside the window: nothing to fit to
        issuingBusyMeasured = mReadPk.clientBusyNsPerOp() > 0 && mBatchPk.clientBusyNsPerOp() > 0;
        for (int round = 0; round < ROUNDS; round++) {
            if (fabric.softNic()) deriveSoftNic(p, onCores());
            CostProfile cp = profile(p);
            Result sReadRt = PrimitiveBench.run(cp, readRtBoth, warm, measure), sRpcRt = PrimitiveBench.run(cp, rpcRtBoth, warm, measure);
            Result sReadPk = PrimitiveBench.run(cp, readPk, warm, measure), sWritePk = PrimitiveBench.run(cp, writePk, warm, measure);
            Result sCasPk = PrimitiveBench.run(cp, casPk, warm, measure), sRpcPk = PrimitiveBench.run(cp, rpcPk, warm, measure);
            Result sBatchPk = PrimitiveBench.run(cp, batchPk, warm, measure);
            // the mean, not the median: a closed loop's throughput is coroutines / mean latency, and on a shared
            // host the mean carries the wake-ups that wait for a core
            double oneWay = p.get("wire.one_way_ns") + (mReadRtBoth.meanUs() - sReadRt.meanUs()) * 1e3 / 2;
            p.put("wire.one_way_ns", clamp("wire.one_way_ns", oneWay));
            // the simulator needs its run-ahead bound below the wire latency (a fabric in one process has almost none)
            lowerRunAhead(p);
            p.put("wire.rpc_receive_ns", clamp("wire.rpc_receive_ns", p.get("wire.rpc_receive_ns") + (mRpcRtBoth.meanUs() - sRpcRt.meanUs()) * 1e3 / 2));
            // the own-node round trip has two loopback legs of nic.loopback_ns / 2 where a remote one has the wire;
            // kept at 2 ns or more (the simulator's run-ahead bound must stay below half of it, and may be 0)
            Result sRpcOwn = PrimitiveBench.run(profile(p), rpcOwn, warm, measure);
            p.put("nic.loopback_ns", Math.max(LOOPBACK_FLOOR_NS, clamp("nic.loopback_ns", p.get("nic.loopback_ns") + (mRpcOwn.meanUs() - sRpcOwn.meanUs()) * 1e3)));
            lowerRunAhead(p);
            if (fabric.softNic()) {
                // per message, not per op: the unbatched peak is the requester's message per doorbell, the batched
                // peak (8 ops in one message) the responder's work per op
                p.put("nic.wqe_fetch_ns", clamp("nic.wqe_fetch_ns", p.get("nic.wqe_fetch_ns") / ratio(mReadPk, sReadPk)));
                p.put("nic.read_mops", clamp("nic.read_mops", p.get("nic.read_mops") * ratio(mBatchPk, sBatchPk)));
            } else {
                p.put("nic.read_mops", clamp("nic.read_mops", p.get("nic.read_mops") * ratio(mReadPk, sReadPk)));
                p.put("nic.write_mops", clamp("nic.write_mops", p.get("nic.write_mops") * ratio(mWritePk, sWritePk)));
                p.put("nic.atomic_mops", clamp("nic.atomic_mops", p.get("nic.atomic_mops") * ratio(mCasPk, sCasPk)));
            }
            // the server's handler CPU per RPC (dispatch and reply): its worker's busy time per RPC
            double rpcCpu = Math.max(0, p.get("cpu.rpc_send_ns") + p.get("cpu.rpc_dispatch_ns") + mRpcPk.serverBusyNsPerOp() - sRpcPk.serverBusyNsPerOp());
            p.put("cpu.rpc_send_ns", clamp("cpu.rpc_send_ns", rpcCpu * sendShare));
            p.put("cpu.rpc_dispatch_ns", clamp("cpu.rpc_dispatch_ns", rpcCpu * (1 - sendShare)));
            // the issuing core per op: one doorbell per batch, a WQE and a completion poll per op; the batch of 8
            // separates the doorbell from the per-op part
            if (!issuingBusyMeasured) continue;
            double perBatchGap = ((mReadPk.clientBusyNsPerOp() - mBatchPk.clientBusyNsPerOp())
                    - (sReadPk.clientBusyNsPerOp() - sBatchPk.clientBusyNsPerOp())) * BATCH / (BATCH - 1);
            p.put("cpu.doorbell_ns", clamp("cpu.doorbell_ns", p.get("cpu.doorbell_ns") + perBatchGap));
            double perOp = Math.max(0, p.get("cpu.post_wqe_ns") + p.get("cpu.poll_cq_ns")
                    + (mBatchPk.clientBusyNsPerOp() - sBatchPk.clientBusyNsPerOp()) - perBatchGap / BATCH);
            p.put("cpu.post_wqe_ns", clamp("cpu.post_wqe_ns", perOp * postShare));
            p.put("cpu.poll_cq_ns", clamp("cpu.poll_cq_ns", perOp * (1 - postShare)));
        }
        for (String k : List.of("wire.one_way_ns", "wire.rpc_receive_ns", "cpu.rpc_send_ns", "cpu.rpc_dispatch_ns", "cpu.doorbell_ns",
                "cpu.post_wqe_ns", "cpu.poll_cq_ns", "nic.loopback_ns")) {
            p.put(k, (double) Math.round(p.get(k)));
        }
        for (String k : List.of("nic.read_mops", "nic.write_mops", "nic.atomic_mops", "nic.wqe_fetch_ns")) p.put(k, round4(p.get(k)));
        if (fabric.softNic()) deriveSoftNic(p, onCores());

        CostProfile fitted = profile(p);
        List<Figure> figures = new ArrayList<>();
        Result fReadRt = PrimitiveBench.run(fitted, readRt, warm, measure), fRpcRt = PrimitiveBench.run(fitted, rpcRt, warm, measure);
        Result fReadRtBoth = PrimitiveBench.run(fitted, readRtBoth, warm, measure), fRpcRtBoth = PrimitiveBench.run(fitted, rpcRtBoth, warm, measure);
        figures.add(new Figure("READ 64 B round trip mean, both nodes issuing", mReadRtBoth.meanUs(), fReadRtBoth.meanUs(), "us", "wire.one_way_ns"));
        figures.add(new Figure("RPC 64 B round trip mean, both nodes issuing", mRpcRtBoth.meanUs(), fRpcRtBoth.meanUs(), "us", "wire.rpc_receive_ns"));
        figures.add(latency("READ 64 B round trip p50, both nodes issuing", mReadRtBoth, fReadRtBoth, "(check)"));
        figures.add(new Figure("READ 64 B round trip mean, " + MANY_COROUTINES + " coroutines, both issuing", mReadRtMany.meanUs(),
                PrimitiveBench.run(fitted, readRtMany, warm, measure).meanUs(), "us", "(check)"));
        figures.add(new Figure("RPC 64 B round trip mean, " + MANY_COROUTINES + " coroutines, both issuing", mRpcRtMany.meanUs(),
                PrimitiveBench.run(fitted, rpcRtMany, warm, measure).meanUs(), "us", "(check)"));
        figures.add(new Figure("RPC 64 B round trip mean, to the own node", mRpcOwn.meanUs(), PrimitiveBench.run(fitted, rpcOwn, warm, measure).meanUs(),
                "us", "nic.loopback_ns"));
        figures.add(new Figure("READ 64 B round trip mean, to the own node", mReadOwn.meanUs(), PrimitiveBench.run(fitted, readOwn, warm, measure).meanUs(),
                "us", "(check)"));
        figures.add(new Figure("READ 64 B round trip mean, node 1 -> node 0 only", mReadRt.meanUs(), fReadRt.meanUs(), "us", "(check)"));
        figures.add(new Figure("RPC 64 B round trip mean, node 1 -> node 0 only", mRpcRt.meanUs(), fRpcRt.meanUs(), "us", "(check)"));
        figures.add(new Figure("WRITE 64 B round trip mean, 1 coroutine", mWriteRt.meanUs(), PrimitiveBench.run(fitted, writeRt, warm, measure).meanUs(), "us", "(check)"));
        figures.add(new Figure("CAS round trip mean, 1 coroutine", mCasRt.meanUs(), PrimitiveBench.run(fitted, casRt, warm, measure).meanUs(), "us", "(check)"));
        boolean soft = fabric.softNic();
        figures.add(rate("READ 64 B peak at node 0, " + PEAK_COROUTINES + " coroutines", mReadPk, PrimitiveBench.run(fitted, readPk, warm, measure),
                soft ? "nic.wqe_fetch_ns" : "nic.read_mops"));
        figures.add(rate("WRITE 64 B peak at node 0", mWritePk, PrimitiveBench.run(fitted, writePk, warm, measure), soft ? "(check)" : "nic.write_mops"));
        figures.add(rate("CAS peak at node 0", mCasPk, PrimitiveBench.run(fitted, casPk, warm, measure), soft ? "(check)" : "nic.atomic_mops"));
        Result fRpcPk = PrimitiveBench.run(fitted, rpcPk, warm, measure), fReadPk = PrimitiveBench.run(fitted, readPk, warm, measure),
                fBatchPk = PrimitiveBench.run(fitted, batchPk, warm, measure);
        figures.add(rate("RPC (8 B, 64 B reply) peak at node 0", mRpcPk, fRpcPk, "(check)"));
        figures.add(new Figure("RPC handler busy time per RPC at node 0", mRpcPk.serverBusyNsPerOp(), fRpcPk.serverBusyNsPerOp(), "ns",
                "cpu.rpc_dispatch_ns, cpu.rpc_send_ns"));
        figures.add(new Figure("issuing core busy per READ, 1 per doorbell", mReadPk.clientBusyNsPerOp(), fReadPk.clientBusyNsPerOp(), "ns",
                issuingBusyMeasured ? "cpu.doorbell_ns" : "(not measurable)"));
        figures.add(new Figure("issuing core busy per READ, " + BATCH + " per doorbell", mBatchPk.clientBusyNsPerOp(), fBatchPk.clientBusyNsPerOp(), "ns",
                issuingBusyMeasured ? "cpu.post_wqe_ns, cpu.poll_cq_ns" : "(not measurable)"));
        figures.add(rate("READ 64 B peak, " + BATCH + " per doorbell", mBatchPk, PrimitiveBench.run(fitted, batchPk, warm, measure),
                soft ? "nic.read_mops" : "(check)"));
        figures.add(new Figure("coroutine resume + suspend on this core", switchNs, fitted.coroutineSwitchNs, "ns", "cpu.coroutine_switch_ns"));
        figures.addAll(cpuFigures);
        figures.replaceAll(g -> g.withBoundNote(p));

        p.put("nic.passive_rpc", fabric.passiveRpc() ? 1.0 : 0.0);
        long baseRunAhead = CostProfile.load(base).runAheadNs;
        if (p.get("sim.run_ahead_ns") < baseRunAhead) {
            measuredHow.put("sim.run_ahead_ns", String.format(Locale.ROOT, "derived: lowered from %s's %d ns to below half the fitted "
                    + "wire.one_way_ns and a quarter of the fitted nic.loopback_ns, as the simulator requires (simulator, not hardware)", base, baseRunAhead));
        }
        Map<String, String> kept = keptParameters();
        return new Outcome(text(p, figures, kept), figures, kept, format(p));
    }

    /** A transaction type's logic figure: a negative measurement is written as 0 and says why. */
    static Figure logicFigure(String kase, String key, double logicNs) {
        return new Figure("logic of " + kase + " per transaction", logicNs, Math.max(0, Math.round(logicNs)), "ns", key,
                logicNs < 0 ? "(negative: below this measurement's resolution, logic and replay differ by less than their noise; written as 0)" : "");
    }

    /**
     * The framework's and the workloads' CPU costs on this core, timed (not fitted): {@code cpu.local_op_ns} from a
     * local 8-byte CAS and READ on the fabric's own memory, {@code logic_ns.*} per transaction type and
     * {@code cpu.tuple_op_ns} from {@link LogicHarness}'s replay (the median over the types of the time per access).
     */
    private List<Figure> cpuCosts(Map<String, Double> p) {
        List<Figure> out = new ArrayList<>();
        progress.println("calibrate: timing a local 8-byte CAS and READ on " + fabric.name() + "'s registered memory");
        double[] local = fabric.localOps().get();
        double localNs = Math.round((local[0] + local[1]) / 2 * 10) / 10.0;
        p.put("cpu.local_op_ns", clamp("cpu.local_op_ns", localNs));
        out.add(new Figure("local 8 B CAS on " + fabric.name() + "'s registered memory", local[0], local[0], "ns", "(part of cpu.local_op_ns)"));
        out.add(new Figure("local 8 B READ on " + fabric.name() + "'s registered memory", local[1], local[1], "ns", "(part of cpu.local_op_ns)"));
        measuredHow.put("cpu.local_op_ns", String.format(Locale.ROOT, "measured: mean of a local 8-byte CAS (%.1f ns) and an 8-byte READ into a "
                + "byte array (%.1f ns) on %s's RegisteredMemory, thread CPU time, median of %d windows of %,d", local[0], local[1], fabric.name(),
                LogicCosts.WINDOWS, LogicCosts.LOCAL_OPS));
        List<Double> perAccess = new ArrayList<>();
        int i = 0;
        for (String kase : LogicHarness.CASES) {
            progress.println("calibrate: timing the workload logic of " + kase + " (" + (++i) + "/" + LogicHarness.CASES.size() + ")");
            LogicCosts.Case c = LogicCosts.measure(kase, cpuWindowNs);
            String key = CostProfile.LOGIC_PREFIX + kase.replace('/', '.').toLowerCase(Locale.ROOT);
            p.put(key, (double) Math.max(0, Math.round(c.logicNs())));
            out.add(logicFigure(kase, key, c.logicNs()));
            measuredHow.put(key, String.format(Locale.ROOT, "measured: CPU ns of the type's pick and logic with its fetch rounds less the same "
                    + "%.1f accesses replayed without logic (LogicHarness), median %.1f of %d windows (%.1f to %.1f)%s", c.accessesPerTxn(), c.logicNs(),
                    LogicCosts.WINDOWS, c.logicMinNs(), c.logicMaxNs(), c.logicNs() < 0
                            ? "; written as 0: the logic is below this measurement's resolution (logic and replay differ by less than their noise)" : ""));
            perAccess.add(c.perAccessNs());
        }
        double[] pa = perAccess.stream().mapToDouble(Double::doubleValue).toArray();
        double tuple = Math.round(LogicCosts.median(pa) * 10) / 10.0;
        p.put("cpu.tuple_op_ns", clamp("cpu.tuple_op_ns", tuple));
        java.util.Arrays.sort(pa);
        out.add(new Figure("framework CPU per access (replay), median of " + pa.length + " types", tuple, tuple, "ns", "cpu.tuple_op_ns"));
        measuredHow.put("cpu.tuple_op_ns", String.format(Locale.ROOT, "measured: LogicHarness's replay, CPU ns per access (adding it to the "
                + "transaction, one fetch through a fake executor: a cached index lookup and the record copied from registered memory, one "
                + "field read or written), less the replay's own bookkeeping; median over the %d transaction types (%.1f-%.1f ns), each the "
                + "median of %d windows", pa.length, pa[0], pa[pa.length - 1], LogicCosts.WINDOWS));
        return out;
    }

    /**
     * A soft NIC (a network thread on the host's cores) serves a one-sided READ as one message received and one
     * sent, so a two-sided message costs half a READ's responder time at each end; the requester's NIC sends one
     * request per doorbell and takes one completion per signaled op, each a message. Its atomics are CPU atomics.
     */
    /**
     * The share of a soft NIC's work that takes a worker core: the benchmark's 2 nodes x {@code threads} workers and their
     * NIC threads on this host's cores; the cores left after the workers go to the NIC threads, the rest of their work
     * shares the workers' cores (all of it when the worker does the NIC's work itself).
     */
    double onCores() {
        if (fabric.nicThreads() == 0) return 1;
        int nodes = 2, spare = Runtime.getRuntime().availableProcessors() - nodes * threads;
        return Math.max(0, Math.min(1, 1 - (double) spare / (nodes * fabric.nicThreads())));
    }

    private static void deriveSoftNic(Map<String, Double> p, double onCores) {
        p.put("nic.on_cores", onCores);
        double half = round4(p.get("nic.wqe_fetch_ns") / 2);
        p.put("nic.send_ns", half);
        p.put("nic.recv_ns", half);
        p.put("nic.wqe_ns", 0.0);
        p.put("nic.cqe_ns", 0.0);
        p.put("nic.write_mops", p.get("nic.read_mops"));
        p.put("nic.atomic_mops", p.get("nic.read_mops"));
        p.put("nic.atomics_coherent", 1.0);
    }

    /** Parameters this calibration leaves at the base's value, each with why. */
    private Map<String, String> keptParameters() {
        Map<String, String> m = new LinkedHashMap<>();
        String passive = fabric.name().equals("tcp") ? "tcp has no passive flag on its wire (ordinary RPCs are sent)" : "not measured";
        if (!fabric.softNic()) {
            m.put("nic.on_cores", "not measured");
            for (String k : List.of("nic.wqe_fetch_ns", "nic.wqe_ns", "nic.send_ns", "nic.recv_ns")) m.put(k, "not separable by these benchmarks");
            m.put("nic.cqe_ns", "passive ACK: " + passive);
            m.put("nic.atomics_coherent", "not measured");
        }
        m.put("nic.qp_cache_entries", "a software fabric has no QP-context cache to outgrow; 2 nodes cannot show one");
        m.put("nic.qp_miss_ns", "as nic.qp_cache_entries");
        m.put("nic.qp_miss_latency_ns", "as nic.qp_cache_entries");
        m.put("link.gbps", "64 B payloads do not load the link; not measured");
        if (!issuingBusyMeasured) {
            String why = "the issuing worker never ended a busy pass in the window (its one-sided ops complete before it yields): not measurable";
            for (String k : List.of("cpu.doorbell_ns", "cpu.post_wqe_ns", "cpu.poll_cq_ns")) m.put(k, why);
        }
        m.put("location_cache.mb", "a software setting, not a primitive");
        m.put("fault.torn_line_bytes", "fault injection only");
        m.put("fault.torn_line_gap_ns", "fault injection only");
        m.put("fault.atomic_gap_ns", "fault injection only");
        if (!measuredHow.containsKey("sim.run_ahead_ns")) {
            m.put("sim.run_ahead_ns", "simulator, not hardware (below half the fitted wire.one_way_ns and a quarter of nic.loopback_ns already)");
        }
        return m;
    }

    private static double ratio(Result measured, Result sim) {
        return sim.mopsPerMachine() <= 0 ? 1 : measured.mopsPerMachine() / sim.mopsPerMachine();
    }

    /** The simulator's run-ahead bound stays below half the wire latency and a quarter of the loopback (CostProfile checks it). */
    private static void lowerRunAhead(Map<String, Double> p) {
        p.put("sim.run_ahead_ns", Math.min(p.get("sim.run_ahead_ns"), Math.floor(Math.min(p.get("wire.one_way_ns"), p.get("nic.loopback_ns") / 2) / 2)));
    }

    private static double clamp(String key, double v) {
        for (CostProfile.Parameter q : CostProfile.PARAMETERS) {
            if (q.key().equals(key)) return Math.max(q.min(), Math.min(q.max(), v));
        }
        throw new IllegalArgumentException(key);
    }

    private static double round4(double v) {
        if (v == 0) return 0;
        double scale = Math.pow(10, 3 - Math.floor(Math.log10(Math.abs(v))));
        return Math.round(v * scale) / scale;
    }

    private CostProfile profile(Map<String, Double> p) {
        try {
            java.nio.file.Path f = java.nio.file.Files.createTempFile("rcc-calibrate-", ".properties");
            try {
                StringBuilder sb = new StringBuilder("base=" + base + "\n");
                format(p).forEach((k, v) -> sb.append(k).append('=').append(v).append('\n'));
                java.nio.file.Files.writeString(f, sb.toString());
                return CostProfile.load(f.toString());
            } finally {
                java.nio.file.Files.deleteIfExists(f);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static Map<String, String> format(Map<String, Double> p) {
        Map<String, String> m = new LinkedHashMap<>();
        p.forEach((k, v) -> m.put(k, v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) (double) v) : Double.toString(v)));
        return m;
    }

    private static Figure latency(String name, Result m, Result s, String param) {
        return new Figure(name, m.p50Us(), s.p50Us(), "us", param);
    }

    private static Figure rate(String name, Result m, Result s, String param) {
        return new Figure(name, m.mopsPerMachine() * 1e3, s.mopsPerMachine() * 1e3, "K ops/s", param);
    }

    /** ns per resume + suspend of a {@link Coroutine} on this core: the median of 9 batches of 200,000 after a warm-up. */
    static double coroutineSwitchNs() {
        Coroutine c = new Coroutine(() -> {
            while (true) Coroutine.suspend();
        });
        int n = 200_000;
        for (int i = 0; i < 5 * n; i++) c.resume();
        double[] t = new double[9];
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        boolean cpu = mx.isCurrentThreadCpuTimeSupported();
        for (int b = 0; b < t.length; b++) {
            long t0 = cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime();
            for (int i = 0; i < n; i++) c.resume();
            t[b] = (double) ((cpu ? mx.getCurrentThreadCpuTime() : System.nanoTime()) - t0) / n;
        }
        java.util.Arrays.sort(t);
        return t[t.length / 2];
    }

    private String text(Map<String, Double> p, List<Figure> figures, Map<String, String> kept) {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (java.io.IOException e) {
            host = "unknown host";
        }
        String when = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        String where = String.format(Locale.ROOT, "host %s, fabric %s (%s), %d thread(s) per node, %d cores, load average %.2f, %s, JDK %s",
                host, fabric.name(), fabric.transport(), threads, Runtime.getRuntime().availableProcessors(), load, when,
                System.getProperty("java.version"));
        Map<String, String> v = format(p);
        Map<String, String> how = new LinkedHashMap<>();
        for (Figure f : figures) {
            for (String k : f.parameter().split(", ")) {
                if (k.startsWith("(")) continue;
                how.put(k, String.format(Locale.ROOT, "fitted: sim gives %.4g %s for \"%s\", measured %.4g %s%s", f.sim(), f.unit(), f.name(), f.measured(), f.unit(),
                        f.note().isEmpty() ? "" : "; " + f.note().substring(1, f.note().length() - 1)));
            }
        }
        how.putAll(measuredHow);
        how.put("cpu.coroutine_switch_ns", String.format(Locale.ROOT, "measured: median of 9 x 200,000 resume + suspend, thread CPU time (%.1f ns)",
                figures.stream().filter(f -> f.parameter().equals("cpu.coroutine_switch_ns")).findFirst().orElseThrow().measured()));
        how.put("nic.passive_rpc", "by construction: the " + fabric.name() + " fabric " + (fabric.passiveRpc()
                ? "carries passive RPCs" : "has no passive flag on its wire and sends them as ordinary RPCs (Endpoint.passiveRpc)"));
        if (fabric.softNic()) {
            String d = "derived: soft NIC, a two-sided message costs half what a one-sided request message does (nic.wqe_fetch_ns / 2) at each end";
            for (String k : List.of("nic.send_ns", "nic.recv_ns")) how.put(k, d);
            how.put("nic.wqe_ns", "derived: soft NIC, a doorbell's message carries its WQEs (cost per message, in nic.wqe_fetch_ns)");
            how.put("nic.cqe_ns", "derived: soft NIC, the completion arrives with the reply message (no DMA of its own)");
            for (String k : List.of("nic.write_mops", "nic.atomic_mops")) {
                how.put(k, "derived: soft NIC, as nic.read_mops (per-op work is a memory access; WRITE and CAS peaks are checks)");
            }
            how.put("nic.atomics_coherent", "by construction: the soft NIC's atomics are CPU atomics on the same memory");
            how.put("nic.on_cores", String.format(Locale.ROOT, "derived: %d cores for 2 nodes x %d worker(s) and %d NIC thread(s) per node%s",
                    Runtime.getRuntime().availableProcessors(), threads, fabric.nicThreads(),
                    fabric.nicThreads() == 0 ? " (the worker does the NIC's work)" : "; the NIC threads' work beyond the spare cores takes the workers'"));
        }
        StringBuilder sb = new StringBuilder();
        sb.append("# Profile calibrated by `rcc calibrate` (docs/calibration.md, \"Calibrating on your own fabric\").\n");
        sb.append("# Measured on ").append(where).append(".\n");
        sb.append("# Fitting is primitive-level only: each fitted parameter was moved until the simulator's run of the same\n");
        sb.append("# micro-benchmark (2 nodes, node 1 -> node 0, 64 B) gave the figure measured on the fabric.\n");
        sb.append("# Parameters marked `kept` have the base profile's value: this calibration cannot measure them.\n");
        sb.append("description=calibrated on ").append(fabric.name()).append(" at ").append(host).append(", ").append(when).append('\n');
        sb.append("base=").append(base).append("\n\n");
        for (CostProfile.Parameter q : CostProfile.PARAMETERS) {
            String reason = how.get(q.key());
            if (reason == null) reason = "kept from " + base + ": " + kept.getOrDefault(q.key(), "not measured");
            sb.append("# ").append(q.meaning()).append(". ").append(reason).append('\n');
            sb.append(q.key()).append('=').append(v.get(q.key())).append('\n');
        }
        for (String k : p.keySet()) {
            if (!k.startsWith(CostProfile.LOGIC_PREFIX)) continue;
            sb.append("# Workload logic CPU per transaction. ").append(how.get(k)).append('\n');
            sb.append(k).append('=').append(v.get(k)).append('\n');
        }
        return sb.toString();
    }
}
