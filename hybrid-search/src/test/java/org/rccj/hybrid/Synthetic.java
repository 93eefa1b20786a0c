package org.rccj.hybrid;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleBiFunction;
import org.rccj.framework.api.Stage;
import org.rccj.framework.spi.HybridCode;
import org.rccj.results.RunMetrics;

/** Hand-made run figures of every code of a protocol, from a per-stage cost function. */
final class Synthetic {
    static final List<Stage> OCC_LIKE = List.of(Stage.READ, Stage.LOCK, Stage.VALIDATE, Stage.LOG, Stage.COMMIT, Stage.RELEASE);
    /** Effective concurrency: throughput = CONCURRENCY / latency (Little's law). */
    static final double CONCURRENCY = 32;

    private Synthetic() {}

    /**
     * A run of {@code code}: every stage runs once per commit with mean {@code cost(stage, code)} us; latency is
     * their sum plus {@code rest} us.
     */
    static RunMetrics run(int code, List<Stage> stages, ToDoubleBiFunction<Stage, Integer> cost, double rest, long seed) {
        Map<String, RunMetrics.StageFigures> st = new LinkedHashMap<>();
        double lat = rest;
        List<String> onesided = new ArrayList<>();
        long commits = 10_000;
        for (Stage s : stages) {
            double c = cost.applyAsDouble(s, code);
            st.put(s.name(), new RunMetrics.StageFigures(c == 0 ? 0 : commits, c)); // a stage costing nothing never ran
            lat += c;
            if ((code & s.bit) != 0) onesided.add(s.name());
        }
        double tps = CONCURRENCY * 1e6 / lat;
        return RunMetrics.builder().dir(Path.of("hybrid=" + code + ",seed=" + seed)).name("syn").protocol("proto").workload("wl")
                .fabric("sim").seed(seed).code(code).onesided(onesided)
                .config(JsonNodeFactory.instance.objectNode().put("hybrid", code).put("seed", seed)).commits(commits)
                .throughputTps(tps).latencyMeanUs(lat).latencyP50Us(lat).latencyP90Us(lat).latencyP99Us(lat).abortRate(0.01)
                .stages(st).build();
    }

    static Map<Integer, CodeResult> all(List<Stage> stages, ToDoubleBiFunction<Stage, Integer> cost, double rest) {
        Map<Integer, CodeResult> out = new HashMap<>();
        for (HybridCode hc : HybridCode.all(stages)) {
            out.put(hc.code(), CodeResult.of(List.of(run(hc.code(), stages, cost, rest, 1))));
        }
        return out;
    }

    /** Additive costs: stage i costs 1 + 0.6 i us one-sided and 2.5 us over RPC (one-sided wins for i < 3). */
    static double additive(Stage s, int code) {
        int i = OCC_LIKE.indexOf(s);
        return (code & s.bit) != 0 ? 1 + 0.6 * i : 2.5;
    }
}
