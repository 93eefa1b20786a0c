package org.rccj.it;

import java.util.Map;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.testkit.SmallRuns;

/** Small verified runs of any protocol on any workload. */
public final class ItRuns {
    private ItRuns() {}

    /** A small sim cluster with verify on, for {@code workload} with its given settings; kv are overrides (dotted keys). */
    public static Map<String, Object> config(String protocol, String workload, Object... kv) {
        return SmallRuns.set(SmallRuns.cluster(workload, "protocol", protocol), kv);
    }

    public static void put(Map<String, Object> m, String key, Object v) { SmallRuns.put(m, key, v); }

    public static RunResult run(Map<String, Object> tree) { return SmallRuns.run(tree); }

    /**
     * summary.json as text without what may differ between two identical sim runs: the environment block and
     * the simulator's wall and CPU seconds (docs/decisions/).
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

    /** See {@link SmallRuns#runUntilCommits}. */
    public static RunResult runUntilCommits(Map<String, Object> tree, int minCommits) { return SmallRuns.runUntilCommits(tree, minCommits); }

    /** See {@link SmallRuns#runUntilChecked}. */
    public static RunResult runUntilChecked(Map<String, Object> tree) { return SmallRuns.runUntilChecked(tree, SmallRuns.MIN_CHECKED); }

    /** See {@link SmallRuns#assertChecked}: at least {@link SmallRuns#MIN_CHECKED} transactions checked. */
    public static void assertChecked(RunResult r, String what) { SmallRuns.assertChecked(r, SmallRuns.MIN_CHECKED, what); }

    public static RunResult run(Map<String, Object> tree, RunHooks hooks) { return SmallRuns.run(tree, hooks); }
}
