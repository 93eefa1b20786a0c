package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;

/** Small verified runs for tests. */
public final class Runs {
    private Runs() {}

    /** A small SmallBank cluster with verify on; {@code kv} are key/value overrides (dotted keys allowed). */
    public static Map<String, Object> smallBank(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fabric", "sim");
        m.put("nodes", 3);
        m.put("threads", 2);
        m.put("coroutines", 4);
        m.put("replication", 2);
        m.put("warmup_ms", 0.2);
        m.put("duration_ms", 1.0);
        m.put("verify", true);
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put("name", "smallbank");
        wl.put("accounts_per_thread", 200);
        wl.put("hot_fraction", 0.05);
        wl.put("hot_probability", 0.5);
        m.put("workload", wl);
        for (int i = 0; i < kv.length; i += 2) put(m, (String) kv[i], kv[i + 1]);
        return m;
    }

    public static void put(Map<String, Object> m, String key, Object v) { org.rccj.framework.config.ConfigTree.set(m, key, v); }

    public static RunResult run(Map<String, Object> tree) {
        return ExperimentRunner.run(ConfigResolver.resolve(tree), null, RunHooks.NONE);
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
            t.put("duration_ms", ((Number) t.get("duration_ms")).doubleValue() * 2);
        }
        return r;
    }

    public static RunResult run(Map<String, Object> tree, RunHooks hooks) {
        return ExperimentRunner.run(ConfigResolver.resolve(tree), null, hooks);
    }

    /** Two sim runs of {@code config} agree on commits, aborts and their reasons and the protocol's own figures. */
    public static void assertDeterministic(Map<String, Object> config) {
        RunResult a = run(config), b = run(config);
        assertEquals(a.commits(), b.commits());
        assertEquals(a.aborts(), b.aborts());
        assertEquals(a.abortReasons, b.abortReasons);
        assertEquals(a.extra, b.extra);
    }
}
