package org.rccj.framework.run;

import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.rccj.framework.history.CheckResult;
import org.rccj.framework.history.HistoryJson;
import org.rccj.framework.history.HistoryRecord;
import org.rccj.framework.history.SerializabilityChecker;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.ClusterRun;
import org.rccj.framework.runtime.CoroutineWorker;
import org.rccj.framework.runtime.WindowGate;
import org.rccj.framework.runtime.WorkerStats;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Store;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.ProcessGroup;
import org.rccj.primitives.Simulation;

/**
 * Runs one experiment: builds the fabric, loads the workload into the store, runs every worker's
 * coroutines for warm-up plus the measured interval, and (with {@code verify}) checks the history and
 * the workload invariants. With {@code history} set, writes the history file (docs/architecture.md).
 */
public final class ExperimentRunner {
    public static final int TIMELINE_BUCKETS = 20;

    private ExperimentRunner() {}

    /**
     * @param progress where to print progress lines (loading, warm-up, percent done); may be null
     * @return the measurements; never writes result files (the results module does)
     */
    public static RunResult run(Config config, PrintStream progress) {
        return run(config, progress, RunHooks.NONE);
    }

    public static RunResult run(Config c, PrintStream progress, RunHooks hooks) {
        return run(c, progress, hooks, null);
    }

    /**
     * @param given a fabric built (and, for a multi-process fabric, joined) by the caller, or null to build one
     *              through the config's fabric factory. With a {@link ProcessGroup} fabric this process runs its
     *              own node only; node 0 returns the merged result of every node, the other nodes return null.
     */
    public static RunResult run(Config c, PrintStream progress, RunHooks hooks, Fabric given) {
        long wall0 = System.nanoTime();
        ProtocolFactory pf = c.protocolFactory();
        WorkloadFactory wf = c.workloadFactory();
        FabricFactory ff = c.fabricFactory();
        Protocol protocol = pf.create(new ProtocolSetup(c.shape(), c.hybrid(), c.protocolOptions()));
        // the memory estimate before any allocation or loop over the data (decision 0156): a tcp/ucx process holds its
        // own node's memory (node 0 with verify also every other node's at the end); sim and local every node's
        boolean oneProcess = !(given instanceof ProcessGroup);
        int memoryNodes = given instanceof ProcessGroup g && !(c.verify() && g.self() == 0) ? 1 : c.nodes();
        int hostedNodes = oneProcess ? c.nodes() : 1;
        WorkloadSetup setup = new WorkloadSetup(c.shape(), c.workload());
        java.util.List<org.rccj.framework.store.TableSpec> atLeast = wf.tablesAtLeast(setup);
        if (atLeast != null) MemoryEstimate.check(c, protocol, atLeast, 1, 0, memoryNodes, hostedNodes, oneProcess, true);
        Workload workload = wf.create(setup);
        MemoryEstimate.check(c, protocol, workload.tables(), workload.maxAccessesPerTxn(), workload.maxPickBytes(),
                memoryNodes, hostedNodes, oneProcess, false);
        FabricSetup fabricSetup = new FabricSetup(c.nodes(), c.threads(), c.fabricSettings());
        Fabric fabric = given != null ? given : ff.create(fabricSetup);
        // a fabric built here is closed here: ucx's registered memory (shared-memory segments) is released when
        // the fabric closes, not by the garbage collector, and a JVM running many runs (the tests) kept every one
        try {
            ProcessGroup group = fabric instanceof ProcessGroup g ? g : null;
            say(progress, "rcc: %s on %s, %s %s, %d nodes x %d threads x %d coroutines: loading",
                    pf.name(), wf.name(), ff.name(), c.hybrid().spelled(), c.nodes(), c.threads(), c.coroutines());
            // NIC atomics only where a stage that posts them with this run's protocol_options is bound one-sided (ProtocolFactory.nicAtomicStages)
            fabric.oneSidedAtomics(ProtocolFactory.needsLoopback(pf, c.hybrid().code(), c.protocolOptions()));
            fabric.localThroughNic(c.localThroughNic() && pf.localAccessThroughNic());
            Simulation sim = fabric.capability(Simulation.class).orElse(null);
            String sequentialWhy = sim != null && sim.simThreads() > 1 ? protocol.sequentialSimReason() : null;
            if (sequentialWhy != null) {
                sim.sequential();
                // said when sim.threads was asked for; the default (every core from 16 nodes up) falls back quietly
                if (c.fabricSetting("sim.threads") != null) System.err.println("rcc: warning: sim.threads: simulating on 1 thread: " + sequentialWhy);
            }
            Store store = new Store(fabric, protocol.header(), workload.tables());
            // location_cache.preload: every location known before the run (RCC's artifact with RDMA_CACHE 1): read from the
            // owners' indexes where every node lives in this process, else filled into this process's caches as the rows load
            boolean preload = c.preloadLocationCache();
            Cluster cluster = new Cluster(c.shape(), fabric, store, workload, preload);
            cluster.artifactStageTimers = c.artifactStageTimers();
            cluster.fetchOneByOne = c.fetchesOneByOne();
            if (cluster.preloadListens()) store.onLoad(cluster::preload);
            // the nodes' memory written on every core, each node's rows in the workload's order (decision 0157)
            store.loadThreads(Store.defaultLoadThreads(), () -> workload.load(store, c.seed()));
            store.onLoad(null);
            if (preload && cluster.preloadedShare() < 1) {
                say(progress, "rcc: the location cache (location_cache.mb) holds %.1f%% of the %d loaded tuples; the rest are looked up in the index",
                        100 * cluster.preloadedShare(), cluster.preloadOffered());
            }
            List<String> freeLogic = cluster.logicCosts(wf.name());
            protocol.attach(cluster);
            boolean record = c.verify() || c.history() != null;
            AutoWarmup auto = c.autoWarmup();
            long warmup = auto == null ? Math.round(c.warmupMs() * 1e6) : 0, duration = Math.round(c.durationMs() * 1e6);
            LongSupplier barrier = ff.virtualTime() ? () -> 0L
                    : group != null ? () -> group.startBarrier(NodeReports.descriptor(fabric)) : System::nanoTime;
            // warmup_ms: auto: the window opens when a thread watching the throughput (node 0's) says so (decision 0210)
            WindowGate gate = auto == null ? null : new WindowGate(duration);
            WarmupWatch watch = auto == null ? null : new WarmupWatch(auto, gate, group,
                    fabric.endpoint(group == null ? 0 : group.self(), 0)::now, cluster::committedSoFar, progress);
            LongSupplier start = watch == null ? barrier : () -> watch.begin(barrier.getAsLong());
            if (auto == null) {
                say(progress, "rcc: loaded in %.1f s; running %.1f ms warm-up + %.1f ms measured (%s time)",
                        (System.nanoTime() - wall0) / 1e9, c.warmupMs(), c.durationMs(), ff.virtualTime() ? "virtual" : "wall-clock");
            } else {
                say(progress, "rcc: loaded in %.1f s; running a warm-up until the throughput is steady (at most %.0f ms) + %.1f ms measured (wall-clock time)",
                        (System.nanoTime() - wall0) / 1e9, auto.boundMs(), c.durationMs());
            }
            HostLoad.Sample hostBefore = ff.virtualTime() ? null : HostLoad.sample(); // wall-clock runs: how busy the host was
            long wallRun = System.nanoTime();
            ThreadMXBean mx = ManagementFactory.getThreadMXBean();
            long cpuRun = mx.getCurrentThreadCpuTime();
            long wallStart = System.nanoTime();
            long expectedNs = auto == null ? warmup + duration : Math.round(auto.boundMs() * 1e6) + duration;   // auto: at most
            hooks.running(new RunHooks.Live(expectedNs, auto != null, ff.virtualTime(),
                    sim != null ? sim::virtualNow : () -> System.nanoTime() - wallStart, cluster::committedSoFar));
            CoroutineWorker[][] workers;
            try {
                workers = ClusterRun.run(cluster, protocol, workload, start, warmup, duration, gate, Math.round(c.backoffUs() * 1000),
                        record, TIMELINE_BUCKETS);
            } finally {
                if (watch != null) watch.stop();
                hooks.stopped();
            }
            double wallS = (System.nanoTime() - wallRun) / 1e9;
            HostLoad hostLoad = hostBefore == null ? null : HostLoad.between(hostBefore, HostLoad.sample());
            double cpuS = (mx.getCurrentThreadCpuTime() - cpuRun + (sim == null ? 0 : sim.otherThreadsCpuNanos())) / 1e9;
            WorkerStats[][] stats = StatsCollector.stats(workers);
            Map<String, Double> metrics = protocol.metrics();
            List<RunResult.NodeHost> nodeHosts = List.of();
            if (group != null) {
                NodeReports.Merged merged = NodeReports.exchange(group, fabric, workload, stats, metrics, c.verify(), hostLoad);
                if (merged == null) return null;
                stats = merged.stats();
                metrics = merged.metrics();
                nodeHosts = merged.hosts();
            }
            hooks.afterRun(cluster);

            RunResult r = new RunResult();
            r.config = c;
            r.measuredS = duration / 1e9;
            r.timelineIntervalMs = c.durationMs() / TIMELINE_BUCKETS;
            r.wallS = wallS;
            r.hostLoad = hostLoad;
            r.nodeHosts = nodeHosts;
            if (watch != null) r.warmup = watch.outcome(stats);
            r.cpuS = cpuS;
            r.simEvents = sim == null ? 0 : sim.events();
            r.simThreads = sim == null ? 0 : sim.simThreads();
            r.simThreadsNote = sequentialWhy;       // set only when more than one thread would have run
            if (ff.virtualTime()) r.freeLogic = List.copyOf(freeLogic);
            r.simCommitsTotal = workersCommitsTotal(workers);
            r.extra.putAll(ff.metrics(fabric, fabricSetup));
            StatsCollector.collect(stats, workload.txnTypes(), pf.stages(), duration, r);
            if (preload) r.extra.put("location_cache_preloaded", cluster.preloadedShare());
            for (Map.Entry<String, Double> e : metrics.entrySet()) r.extra.put(e.getKey(), e.getValue());
            say(progress, "rcc: ran in %.2f s wall: %d commits, %d aborts", wallS, r.commits(), r.aborts());

            if (record) {
                List<HistoryRecord> history = StatsCollector.history(stats);
                if (c.history() != null) {
                    HistoryJson.write(Path.of(c.history()), history, store.tableNames());
                    say(progress, "rcc: history of %d transactions written to %s", history.size(), c.history());
                }
                if (c.verify()) {
                    long v0 = System.nanoTime();
                    CheckResult check = SerializabilityChecker.check(history, store.tableNames());
                    Map<String, Boolean> inv = workload.checkInvariants(store);
                    r.verification = new RunResult.Verification(true, check.serializable(), check.txnsChecked(),
                            check.anomalies(), inv);
                    say(progress, "rcc: verified %d transactions in %.2f s", check.txnsChecked(), (System.nanoTime() - v0) / 1e9);
                }
            }
            return r;
        } finally {
            if (given == null) fabric.close();
        }
    }

    private static long workersCommitsTotal(CoroutineWorker[][] workers) {
        long n = 0;
        for (CoroutineWorker[] ws : workers) for (CoroutineWorker w : ws) if (w != null) n += w.stats().committedTotal();
        return n;
    }

    private static void say(PrintStream p, String fmt, Object... args) {
        if (p != null) p.println(String.format(Locale.ROOT, fmt, args));
    }
}
