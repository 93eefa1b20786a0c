package org.rccj.it;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;

/** Small verified runs of any protocol on any workload. */
public final class ItRuns {
    private ItRuns() {}

    /** A small sim cluster with verify on, for {@code workload} with its given settings; kv are overrides (dotted keys). */
    public static Map<String, Object> config(String protocol, String workload, Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("fabric", "sim");
        m.put("nodes", 3);
        m.put("threads", 2);
        m.put("coroutines", 4);
        m.put("replication", 2);
        m.put("warmup_ms", 0.2);
        m.put("duration_ms", 1.0);
        m.put("verify", true);
        m.put("protocol", protocol);
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put("name", workload);
        m.put("workload", wl);
        for (int i = 0; i < kv.length; i += 2) put(m, (String) kv[i], kv[i + 1]);
        return m;
    }

    public static void put(Map<String, Object> m, String key, Object v) { org.rccj.framework.config.ConfigTree.set(m, key, v); }

    public static RunResult run(Map<String, Object> tree) { return run(tree, RunHooks.NONE); }

    /**
     * summary.json as text without what may differ between two identical sim runs: the environment block and
     * the simulator's wall and CPU seconds (design.md Decisions).
     */
    public static String deterministicSummary(RunResult r) {
        try {
            com.fasterxml.jackson.databind.node.ObjectNode n = (com.fasterxml.jackson.databind.node.ObjectNode)
                    new com.fasterxml.jackson.databind.ObjectMapper().readTree(org.rccj.results.SummaryJson.toJson(r));
            n.remove("environment");
            com.fasterxml.jackson.databind.JsonNode sim = n.get("sim");
            if (sim instanceof com.fasterxml.jackson.databind.node.ObjectNode o) o.remove(java.util.List.of("wall_s", "cpu_s"));
            return n.toString();
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
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
}
