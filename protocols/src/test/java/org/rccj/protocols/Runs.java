package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.testkit.SmallRuns;

/** Small verified runs for tests (the cluster and the running are {@link SmallRuns}'). */
public final class Runs {
    private Runs() {}

    /** A small SmallBank cluster with verify on; {@code kv} are key/value overrides (dotted keys allowed). */
    public static Map<String, Object> smallBank(Object... kv) {
        Map<String, Object> m = SmallRuns.cluster("smallbank", "workload.accounts_per_thread", 200,
                "workload.hot_fraction", 0.05, "workload.hot_probability", 0.5);
        return SmallRuns.set(m, kv);
    }

    public static void put(Map<String, Object> m, String key, Object v) { SmallRuns.put(m, key, v); }

    public static RunResult run(Map<String, Object> tree) { return SmallRuns.run(tree); }

    /** See {@link SmallRuns#runUntilCommits}. */
    public static RunResult runUntilCommits(Map<String, Object> tree, int minCommits) { return SmallRuns.runUntilCommits(tree, minCommits); }

    public static RunResult run(Map<String, Object> tree, RunHooks hooks) { return SmallRuns.run(tree, hooks); }

    /** Two sim runs of {@code config} agree on commits, aborts and their reasons and the protocol's own figures. */
    public static void assertDeterministic(Map<String, Object> config) {
        RunResult a = run(config), b = run(config);
        assertEquals(a.commits(), b.commits());
        assertEquals(a.aborts(), b.aborts());
        assertEquals(a.abortReasons, b.abortReasons);
        assertEquals(a.extra, b.extra);
    }
}
