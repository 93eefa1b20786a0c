package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.results.SummaryJson;

/** sim runs with the same config and seed give identical summary.json apart from the environment block. */
class SmallBankDeterminismTest {
    /** The summary.json text with the environment block and the simulator's wall time removed. */
    static String summaryWithoutEnvironment(RunResult r) {
        ObjectNode n;
        try {
            n = (ObjectNode) new ObjectMapper().readTree(SummaryJson.toJson(r));
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        n.remove("environment");
        ((ObjectNode) n.get("sim")).remove(java.util.List.of("wall_s", "cpu_s"));
        return n.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided", "READ+LOG+COMMIT"})
    void sameSeedSameSummary(String code) {
        var cfg = ItRuns.config("occ", "smallbank", "hybrid", code, "workload.accounts_per_thread", 50);
        String a = summaryWithoutEnvironment(ItRuns.run(cfg));
        String b = summaryWithoutEnvironment(ItRuns.run(cfg));
        assertEquals(a, b);
        var other = ItRuns.config("occ", "smallbank", "hybrid", code, "workload.accounts_per_thread", 50, "seed", 2);
        assertNotEquals(a, summaryWithoutEnvironment(ItRuns.run(other)), "the seed must matter");
    }
}
