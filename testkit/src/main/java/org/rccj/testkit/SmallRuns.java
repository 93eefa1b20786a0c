package org.rccj.testkit;

import org.rccj.framework.run.Config;
import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.framework.config.ConfigTree;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;

/** Small verified sim runs for tests: one base cluster, overridden per test with dotted keys. */
public final class SmallRuns {
    private SmallRuns() {}

    /**
     * A small sim cluster (3 nodes x 2 threads x 4 coroutines, replication 2, 0.2 ms warm-up, 1 ms run) with
     * verify on, running {@code workload} with its defaults; {@code kv} are key/value overrides (dotted keys allowed).
     */
    public static Map<String, Object> cluster(String workload, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(Config.FABRIC.key(), "sim");
        m.put(Config.NODES.key(), 3);
        m.put(Config.THREADS.key(), 2);
        m.put(Config.COROUTINES.key(), 4);
        m.put(Config.REPLICATION.key(), 2);
        m.put(Config.WARMUP_MS.key(), 0.2);
        m.put(Config.DURATION_MS.key(), 1.0);
        m.put(Config.VERIFY.key(), true);
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put(Config.NAME.key(), workload);
        m.put(Config.WORKLOAD, wl);
        return set(m, kv);
    }

    /** Sets each key/value pair of {@code kv} in {@code m} (dotted keys reach into nested maps); returns m. */
    public static Map<String, Object> set(Map<String, Object> m, Object... kv) {
        for (int i = 0; i < kv.length; i += 2) put(m, (String) kv[i], kv[i + 1]);
        return m;
    }

    public static void put(Map<String, Object> m, String key, Object v) { ConfigTree.set(m, key, v); }

    public static RunResult run(Map<String, Object> tree) { return run(tree, RunHooks.NONE); }

    public static RunResult run(Map<String, Object> tree, RunHooks hooks) {
        return ExperimentRunner.run(ConfigResolver.resolve(tree), null, hooks);
    }

    /**
     * For wall-clock fabrics: runs, and while fewer than {@code minCommits} committed (a loaded machine can
     * starve a short run), runs again with twice the duration, at most four times. The last result is
     * returned whatever it holds; the caller asserts on it.
     */
    public static RunResult runUntilCommits(Map<String, Object> tree, int minCommits) {
        Map<String, Object> t = new LinkedHashMap<>(tree);
        RunResult r = null;
        for (int attempt = 0; attempt < 4; attempt++) {
            r = run(t);
            if (r.commits() >= minCommits) break;
            t.put(Config.DURATION_MS.key(), ((Number) t.get(Config.DURATION_MS.key())).doubleValue() * 2);
        }
        return r;
    }

    /** The fewest committed transactions a real-fabric (tcp, ucx) verification must check to count (issue 33). */
    public static final int MIN_CHECKED = 500;

    /**
     * For wall-clock fabrics: runs, and while the verification checked fewer than {@code minChecked} committed
     * transactions, runs again with twice the duration, at most four times; returns the last result, which the
     * caller asserts on (with {@link #assertChecked}).
     */
    public static RunResult runUntilChecked(Map<String, Object> tree, int minChecked) {
        Map<String, Object> t = new LinkedHashMap<>(tree);
        RunResult r = null;
        for (int attempt = 0; attempt < 4; attempt++) {
            r = run(t);
            if (r.verification.txnsChecked() >= minChecked) break;
            t.put(Config.DURATION_MS.key(), ((Number) t.get(Config.DURATION_MS.key())).doubleValue() * 2);
        }
        return r;
    }

    /** Fails unless {@code r}'s verification checked at least {@code minChecked} transactions, saying how many it did. */
    public static void assertChecked(RunResult r, int minChecked, String what) {
        long n = r.verification.txnsChecked();
        if (n < minChecked) {
            throw new AssertionError(what + ": the verification checked " + n + " committed transactions (at least " + minChecked
                    + " needed to mean something; last window " + r.config.durationMs() + " ms)");
        }
    }
}
