package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.results.SummaryJson;
import org.rccj.workloads.tatp.Tatp;
import org.rccj.workloads.ycsb.Ycsb;

/** summary.json of YCSB and TATP runs: per_txn_type filled for every type, and identical for the same seed on sim. */
class YcsbTatpSummaryTest {
    private static JsonNode json(RunResult r) {
        try {
            return new ObjectMapper().readTree(SummaryJson.toJson(r));
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"ycsb", "tatp"})
    void perTxnTypeFilled(String workload) {
        JsonNode s = json(ItRuns.run(YcsbTatpRuns.config(workload, "occ")));
        List<String> types = workload.equals("ycsb") ? Ycsb.TYPES : Tatp.TYPES;
        JsonNode per = s.get("per_txn_type");
        assertEquals(types.size(), per.size(), per.toString());
        long commits = 0, rolledBack = 0, aborts = 0;
        for (String t : types) {
            JsonNode n = per.get(t);
            assertNotNull(n, "missing type " + t);
            assertTrue(n.get("commits").asLong() > 0, t + " never committed: " + n);
            for (String k : List.of("aborts", "rolled_back", "throughput_tps", "latency_us")) assertTrue(n.has(k), t + " lacks " + k);
            commits += n.get("commits").asLong();
            rolledBack += n.get("rolled_back").asLong();
            aborts += n.get("aborts").asLong();
        }
        assertEquals(s.get("commits").asLong(), commits);
        assertEquals(s.get("rolled_back").asLong(), rolledBack);
        assertEquals(s.get("aborts").asLong(), aborts);
        if (workload.equals("tatp")) {
            for (String t : List.of("GetNewDestination", "GetAccessData", "UpdateSubscriberData", "InsertCallForwarding", "DeleteCallForwarding")) {
                assertTrue(per.get(t).get("rolled_back").asLong() > 0, t + " never rolled back");
            }
            assertEquals(0, per.get("GetSubscriberData").get("rolled_back").asLong());
        } else {
            assertEquals(0, rolledBack, "YCSB has no logic rollbacks");
        }
        assertTrue(s.get("verification").get("serializable").asBoolean());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ycsb", "tatp"})
    void sameSeedSameSummary(String workload) {
        var cfg = YcsbTatpRuns.config(workload, "occ", "hybrid", "READ+LOG+COMMIT", "workload." + (workload.equals("ycsb") ? "zipf_theta" : "subscriber_distribution"),
                workload.equals("ycsb") ? 0.9 : "nurand");
        String a = ItRuns.deterministicSummary(ItRuns.run(cfg));
        assertEquals(a, ItRuns.deterministicSummary(ItRuns.run(cfg)));
        var other = YcsbTatpRuns.config(workload, "occ", "hybrid", "READ+LOG+COMMIT", "seed", 2);
        assertNotEquals(a, ItRuns.deterministicSummary(ItRuns.run(other)), "the seed must matter");
    }
}
