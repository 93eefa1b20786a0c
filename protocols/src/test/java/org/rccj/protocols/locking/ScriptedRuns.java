package org.rccj.protocols.locking;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.protocols.Runs;

/** Runs of the test-only {@code scripted-locks} workload on a small sim cluster (2 nodes, 1 thread, 8 coroutines). */
public final class ScriptedRuns {
    private ScriptedRuns() {}

    /** A verified sim run of {@code script} under {@code protocol}/{@code code}; kv are overrides (dotted keys). */
    public static RunResult run(String protocol, String code, String script, Object... kv) {
        Map<String, Object> m = Runs.smallBank("protocol", protocol, "hybrid", code, "nodes", 2, "threads", 1, "coroutines", 8,
                "warmup_ms", 0, "duration_ms", 0.3);
        Map<String, Object> wl = new LinkedHashMap<>();
        wl.put("name", "scripted-locks");
        wl.put("script", script);
        m.put("workload", wl);
        for (int i = 0; i < kv.length; i += 2) Runs.put(m, (String) kv[i], kv[i + 1]);
        return Runs.run(m);
    }

    public static TxnTypeStats type(RunResult r, String name) { return r.perType.get(name); }

    /** Latency of the single committed transaction of a scripted role, us. */
    public static double latencyUs(RunResult r, String role) {
        TxnTypeStats s = type(r, role);
        if (s.commits != 1) throw new AssertionError(role + " committed " + s.commits + " times");
        return s.latency.max() / 1e3;
    }
}
