package org.rccj.results;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;

/** Hand-built run results with known figures. */
final class SampleResults {
    private SampleResults() {}

    static Config config(String fabric, boolean verify) { return config(fabric, verify, null); }

    /** As {@link #config(String, boolean)} with {@code duration_ms} (null: the default). */
    static Config config(String fabric, boolean verify, Double durationMs) {
        Map<String, Object> tree = new LinkedHashMap<>();
        if (durationMs != null) tree.put("duration_ms", durationMs);
        tree.put("name", "sample");
        tree.put("fabric", fabric);
        tree.put("protocol", "fakeproto");
        tree.put("hybrid", "READ+COMMIT");
        tree.put("nodes", 3);
        tree.put("threads", 2);
        tree.put("coroutines", 4);
        tree.put("seed", 42);
        tree.put("verify", verify);
        tree.put("workload", Map.of("name", "fakewl", "hot_probability", 0.5));
        return ConfigResolver.resolve(tree);
    }

    /**
     * 20 ms measured; 1000 commits (600 "deposit" at 10 us, 400 "transfer" at 20 us), 50 aborts;
     * stages READ (1000 x 2 us), LOCK (500 x 4 us), COMMIT (1000 x 6 us) and EXECUTE (1000 x 1 us).
     */
    static RunResult sample(String fabric) {
        RunResult r = new RunResult();
        r.config = config(fabric, true);
        r.measuredS = 0.02;
        TxnTypeStats deposit = new TxnTypeStats();
        deposit.commits = 600;
        deposit.aborts = 10;
        for (int i = 0; i < 600; i++) deposit.latency.record(10_000);
        TxnTypeStats transfer = new TxnTypeStats();
        transfer.commits = 400;
        transfer.aborts = 40;
        for (int i = 0; i < 400; i++) transfer.latency.record(20_000);
        r.perType.put("deposit", deposit);
        r.perType.put("transfer", transfer);
        r.total.add(deposit);
        r.total.add(transfer);
        r.abortReasons.put("validation", 30L);
        r.abortReasons.put("lock_conflict", 20L);
        r.stages.put(Stage.READ, hist(1000, 2_000));
        r.stages.put(Stage.LOCK, hist(500, 4_000));
        r.stages.put(Stage.COMMIT, hist(1000, 6_000));
        r.execute.add(hist(1000, 1_000));
        r.network.read = 3000;
        r.network.write = 1000;
        r.network.cas = 500;
        r.network.faa = 7;
        r.network.rpc = 1200;
        r.network.bytes = 1_234_567;
        r.network.doorbells = 2500;
        r.network.local = 99;
        r.busyShare = new double[] {0.875, 0.5, 1.0 / 3};
        r.timeline = new long[] {240, 260, 250, 250};
        r.timelineIntervalMs = 5;
        r.extra.put("fallback_rate", 0.125);
        r.verification = new RunResult.Verification(true, true, 12345, List.of(), Map.of("total_money", true));
        r.wallS = 0.123456;
        r.simEvents = 987654;
        return r;
    }

    static Histogram hist(int n, long ns) {
        Histogram h = new Histogram();
        for (int i = 0; i < n; i++) h.record(ns);
        return h;
    }
}
