package org.rccj.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.rccj.fabrics.bench.PrimitiveBench;
import org.rccj.fabrics.bench.PrimitiveBench.Pattern;
import org.rccj.fabrics.bench.PrimitiveBench.Result;
import org.rccj.fabrics.bench.PrimitiveBench.Scenario;
import org.rccj.fabrics.bench.PrimitiveBench.Timing;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.fabrics.cluster.ClusterFabricFactory;
import org.rccj.fabrics.cluster.ClusterSettings;
import org.rccj.fabrics.cluster.LocalLauncher;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.Verb;
import org.rccj.experiments.Exit;

/**
 * {@code rcc bench --fabric tcp|ucx}: round-trip latency and peak rate per verb and for RPC over a multi-process
 * fabric on this host. Two nodes on loopback, each joined through the fabric's {@link ClusterFabricFactory} as its
 * own process would (both in this JVM, each with its own control plane and data plane): node 1's coroutines issue,
 * node 0 serves (tcp: its network thread for one-sided ops, its worker for RPC; ucx: UCX, and its worker for RPC).
 * Latencies are ucx_perftest's ({@link Timing#PER_ITERATION}: the time between a coroutine's consecutive iteration
 * ends, whose mean is the elapsed time over the iterations), so the 1-coroutine round trips compare like for like
 * with {@code ucx_perftest -t ucp_get|ucp_cswap|ucp_am_lat} (examples/ucx-bench-vs-perftest).
 */
final class ClusterBench {
    private static final long WARMUP_NS = 300_000_000L, MEASURE_NS = 1_000_000_000L;

    private ClusterBench() {}

    /** {@code keys}: the fabric's own config keys (dotted), e.g. tcp.connections or ucx.tls; {@code what} describes them. */
    static int run(PrintStream out, Path csv, String fabric, int threads, Map<String, Object> keys, String what) throws IOException {
        out.println("primitive micro-benchmarks on " + fabric + ": 2 nodes on loopback, node 1 -> node 0, " + threads + " thread(s) per node, "
                + what + ", " + Runtime.getRuntime().availableProcessors() + " cores");
        out.println("latency: per iteration of a coroutine, as ucx_perftest times it (one clock reading per iteration; mean = elapsed / iterations)");
        out.printf(Locale.ROOT, "%-34s %10s %10s %10s %14s%n", "scenario", "p50 us", "mean us", "p99 us", "ops/s");
        StringBuilder sb = new StringBuilder("scenario,p50_us,mean_us,p99_us,ops_per_s\n");
        List<Object[]> rows = new ArrayList<>();
        for (Verb v : new Verb[] {Verb.READ, Verb.WRITE, Verb.CAS, Verb.FAA, Verb.RPC}) {
            rows.add(new Object[] {v + " 64 B round trip, 1 coroutine", scenario(v, threads, 1, 1)});
        }
        for (Verb v : new Verb[] {Verb.READ, Verb.WRITE, Verb.CAS, Verb.FAA, Verb.RPC}) {
            rows.add(new Object[] {v + " 64 B peak, 32 coroutines", scenario(v, threads, 32, 1)});
        }
        rows.add(new Object[] {"READ 64 B peak, 32 cor. x 8 per doorbell", scenario(Verb.READ, threads, 32, 8)});
        for (Object[] row : rows) {
            Scenario s = (Scenario) row[1];
            Result r = measure(s, fabric, keys, WARMUP_NS, MEASURE_NS, Timing.PER_ITERATION);
            double opsPerS = r.mopsPerMachine() * 1e6;
            out.printf(Locale.ROOT, "%-34s %10.3f %10.3f %10.3f %14.0f%n", row[0], r.p50Us(), r.meanUs(), r.p99Us(), opsPerS);
            sb.append('"').append(row[0]).append("\",").append(String.format(Locale.ROOT, "%.3f,%.3f,%.3f,%.0f%n", r.p50Us(), r.meanUs(), r.p99Us(), opsPerS));
        }
        if (csv != null) {
            Files.writeString(csv, sb.toString());
            out.println("csv: " + csv);
        }
        return Exit.OK;
    }

    private static Scenario scenario(Verb v, int threads, int coroutines, int batch) {
        return new Scenario(v.name(), v, 64, 2, threads, coroutines, batch, false, false, Pattern.TO_NODE0);
    }

    /** Starts a fresh two-node cluster of {@code fabric} in this JVM, runs the scenario on it and closes it. */
    static Result measure(Scenario s, String fabric, Map<String, Object> keys) throws IOException {
        return measure(s, fabric, keys, WARMUP_NS, MEASURE_NS);
    }

    /** As {@link #measure(Scenario, String, Map)} with other wall-clock windows. */
    static Result measure(Scenario s, String fabric, Map<String, Object> keys, long warmupNs, long measureNs) throws IOException {
        return measure(s, fabric, keys, warmupNs, measureNs, Timing.POST_TO_COMPLETION);
    }

    /** As {@link #measure(Scenario, String, Map, long, long)} with latencies as {@code timing} defines them. */
    static Result measure(Scenario s, String fabric, Map<String, Object> keys, long warmupNs, long measureNs, Timing timing) throws IOException {
        List<Fabric> fabrics = join(fabric, s.nodes(), s.threads(), keys);
        try {
            return PrimitiveBench.run(fabrics, s, warmupNs, measureNs, timing);
        } finally {
            for (Fabric f : fabrics) f.close();
        }
    }

    /**
     * A fresh cluster of {@code fabric} in this JVM: every node joined through the fabric's {@link ClusterFabricFactory}
     * as its own process would, each with its own control plane and data plane; the caller closes them.
     */
    static List<Fabric> join(String fabric, int nodes, int threads, Map<String, Object> keys) throws IOException {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put(Config.FABRIC.key(), fabric);
        tree.put(Config.NODES.key(), nodes);
        tree.put(Config.THREADS.key(), threads);
        tree.put(Config.REPLICATION.key(), 1);       // a config the resolver accepts for 2 nodes; the bench runs no protocol
        tree.put("workload", new LinkedHashMap<>(Map.of("name", "smallbank")));
        for (Map.Entry<String, Object> e : keys.entrySet()) org.rccj.framework.config.ConfigTree.set(tree, e.getKey(), e.getValue());
        Config config = ConfigResolver.resolve(tree);
        ClusterFabricFactory factory = (ClusterFabricFactory) config.fabricFactory();
        int[] ports = LocalLauncher.freePorts(nodes);
        List<InetSocketAddress> hosts = new ArrayList<>();
        for (int p : ports) hosts.add(new InetSocketAddress("127.0.0.1", p));
        byte[] secret = new byte[32], digest = new byte[32];
        new SecureRandom().nextBytes(secret);
        List<CompletableFuture<Fabric>> joins = new ArrayList<>();
        for (int n = 0; n < nodes; n++) {
            ClusterSettings set = new ClusterSettings(n, hosts, secret, digest, 10_000, 5_000, false, System.err);
            CompletableFuture<Fabric> f = new CompletableFuture<>();
            Thread t = new Thread(() -> {
                try {
                    f.complete(factory.join(config, set));
                } catch (RuntimeException e) {
                    f.completeExceptionally(e);
                }
            }, "bench-join-" + n);
            t.start();
            joins.add(f);
        }
        List<Fabric> fabrics = new ArrayList<>();
        for (CompletableFuture<Fabric> j : joins) fabrics.add(j.join());
        return fabrics;
    }
}
