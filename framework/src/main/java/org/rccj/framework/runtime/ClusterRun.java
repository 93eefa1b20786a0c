package org.rccj.framework.runtime;

import java.util.List;
import java.util.function.LongSupplier;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.store.Hashing;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.WorkerHost;

/** Builds the workers and coroutines of a cluster and runs them on its fabric. */
public final class ClusterRun {
    private ClusterRun() {}

    /**
     * @param startClock the fabric's clock, read once everything is built and just before the workers start
     *                   (on real fabrics building the coroutines must not eat into the warm-up)
     * @param warmupNs the fixed warm-up; ignored with a {@code gate}
     * @param gate null with a fixed warm-up; else the measured window opens when the gate does ({@code warmup_ms: auto})
     * @param backoffNs first back-off after an abort
     */
    public static CoroutineWorker[][] run(Cluster cluster, Protocol protocol, Workload workload, LongSupplier startClock,
                                 long warmupNs, long durationNs, WindowGate gate, long backoffNs, boolean recordHistory, int timelineBuckets) {
        int nodes = cluster.nodes(), threads = cluster.threads(), coroutines = cluster.shape.coroutines();
        List<String> types = workload.txnTypes();
        CoroutineWorker[][] workers = new CoroutineWorker[nodes][threads];
        cluster.workers = workers;
        cluster.windowGate = gate;
        long warmEnd = Long.MAX_VALUE, end = Long.MAX_VALUE;   // set just before the start, below (or by the gate)
        WorkerStats first = null;
        for (int n = 0; n < nodes; n++) {
            if (!cluster.fabric.hosts(n)) continue;      // another process runs that node (tcp)
            first = null;       // a node's workers share (sim.threads: a node runs on one thread; merged by identity)
            for (int t = 0; t < threads; t++) {
                WorkerStats stats = new WorkerStats(types.size(), warmEnd, end, timelineBuckets, recordHistory,
                        cluster.fabric.oneThread() ? first : null);
                if (first == null) first = stats;
                CoroutineWorker w = new CoroutineWorker(cluster, n, t, coroutines + protocol.serviceCoroutines(), stats);
                w.typeNames = types;
                w.lockWaiters = protocol.lockManagerWaiters();
                workers[n][t] = w;
            }
        }
        for (int n = 0; n < nodes; n++) {
            if (workers[n][0] == null) continue;
            for (int t = 0; t < threads; t++) {
                CoroutineWorker w = workers[n][t];
                for (int c = 0; c < coroutines; c++) {
                    int global = (n * threads + t) * (coroutines + protocol.serviceCoroutines()) + c + 1;
                    long seed = Hashing.mix(cluster.shape.seed(), global);
                    WorkerCoroutine ctx = new WorkerCoroutine(w, c, global, seed);
                    w.coroutines[c] = ctx;
                    TxnExecutor exec = protocol.executor(ctx);
                    TxnGenerator gen = workload.generator(ctx);
                    w.start(ctx, new TxnLoop(ctx, exec, gen, backoffNs));
                }
                int services = protocol.serviceCoroutines();
                for (int k = 0; k < services; k++) {
                    int c = coroutines + k;
                    int global = (n * threads + t) * (coroutines + services) + c + 1;
                    WorkerCoroutine ctx = new WorkerCoroutine(w, c, global, Hashing.mix(cluster.shape.seed(), -global));
                    w.coroutines[c] = ctx;
                    List<Runnable> bodies = protocol.services(ctx);
                    w.start(ctx, bodies.get(k));
                }
            }
        }
        long start = startClock.getAsLong();
        for (CoroutineWorker[] ws : workers) {
            for (CoroutineWorker w : ws) {
                if (w == null) continue;
                w.stats.runStart = start;
                if (gate != null) continue;      // the window opens while the run goes on (CoroutineWorker.mark)
                w.stats.warmEnd = start + warmupNs;
                w.stats.end = start + warmupNs + durationNs;
            }
        }
        WorkerHost[][] hosts = new WorkerHost[nodes][];
        for (int n = 0; n < nodes; n++) hosts[n] = workers[n];
        cluster.fabric.run(hosts);
        for (CoroutineWorker[] ws : workers) for (CoroutineWorker w : ws) if (w != null) w.stats.seal(w.ep.counters(), w.ep.busyNanos(), w.cacheHits, w.cacheMisses);
        return workers;
    }
}
