package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;

class SummaryJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> fields(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.fieldNames().forEachRemaining(out::add);
        return out;
    }

    @Test
    void hasEveryContractFieldInOrder() throws Exception {
        RunResult sample = SampleResults.sample("sim");
        // a run's per-transaction accounting (the stand-in has none of its own): all stage time in committed attempts
        for (org.rccj.framework.stats.Histogram h : sample.stages.values()) sample.committedStageNs += h.sum();
        JsonNode s = JSON.readTree(SummaryJson.toJson(sample));
        assertEquals(List.of("name", "fabric", "profile", "protocol", "workload", "seed", "hybrid", "config", "measured_s",
                "commits", "aborts", "rolled_back", "abort_rate", "abort_reasons", "throughput_tps", "latency_us", "per_txn_type", "stages", "outside_stages",
                "network", "cpu", "verification", "warnings", "extra", "sim", "environment"), fields(s));
        assertEquals("sample", s.get("name").asText());
        assertEquals("sim", s.get("fabric").asText());
        assertEquals("cx4-edr", s.get("profile").asText());
        assertEquals("fakeproto", s.get("protocol").asText());
        assertEquals("fakewl", s.get("workload").asText());
        assertEquals(42, s.get("seed").asLong());
        assertEquals(18, s.get("hybrid").get("code").asInt());
        assertEquals("[\"READ\",\"COMMIT\"]", s.get("hybrid").get("onesided").toString());
        assertEquals(0.5, s.get("config").get("workload").get("hot_probability").asDouble());
        assertEquals("READ+COMMIT", s.get("config").get("hybrid").asText());
        assertEquals(0.02, s.get("measured_s").asDouble());
        assertEquals(1000, s.get("commits").asLong());
        assertEquals(50, s.get("aborts").asLong());
        assertEquals(0.047619, s.get("abort_rate").asDouble());
        assertEquals(List.of("lock_conflict", "validation"), fields(s.get("abort_reasons")));
        assertEquals(50000.0, s.get("throughput_tps").asDouble());
        assertEquals(List.of("mean", "p50", "p90", "p95", "p99", "p999", "max"), fields(s.get("latency_us")));
        assertEquals(14.0, s.get("latency_us").get("mean").asDouble());
        assertEquals(20.0, s.get("latency_us").get("max").asDouble());
        double p50 = s.get("latency_us").get("p50").asDouble();
        assertTrue(Math.abs(p50 - 10.0) / 10.0 < 0.016, "p50 within histogram error: " + p50);
        double p95 = s.get("latency_us").get("p95").asDouble(); // 600 at 10 us, 400 at 20 us: the 95th is a 20 us one
        assertTrue(Math.abs(p95 - 20.0) / 20.0 < 0.016, "p95 within histogram error: " + p95);

        JsonNode t = s.get("per_txn_type");
        assertEquals(List.of("deposit", "transfer"), fields(t));
        assertEquals(List.of("commits", "aborts", "rolled_back", "throughput_tps", "latency_us"), fields(t.get("transfer")));
        assertEquals(400, t.get("transfer").get("commits").asLong());
        assertEquals(40, t.get("transfer").get("aborts").asLong());
        assertEquals(20000.0, t.get("transfer").get("throughput_tps").asDouble());
        assertEquals(20.0, t.get("transfer").get("latency_us").get("mean").asDouble());

        JsonNode st = s.get("stages");
        assertEquals(List.of("READ", "LOCK", "COMMIT", "EXECUTE"), fields(st));
        assertEquals(List.of("count", "mean_us", "p50_us", "p99_us", "share"), fields(st.get("READ")));
        assertEquals(500, st.get("LOCK").get("count").asLong());
        assertEquals(4.0, st.get("LOCK").get("mean_us").asDouble());
        // totals: READ 2 ms, LOCK 2 ms, COMMIT 6 ms, EXECUTE 1 ms of 11 ms
        assertEquals(0.545455, st.get("COMMIT").get("share").asDouble());
        assertEquals(0.090909, st.get("EXECUTE").get("share").asDouble());

        assertEquals(List.of("read", "write", "cas", "faa", "rpc", "bytes", "doorbells", "local"), fields(s.get("network")));
        assertEquals(1_234_567, s.get("network").get("bytes").asLong());
        assertEquals("[0.875,0.5,0.333333]", s.get("cpu").get("busy_share").toString());
        JsonNode v = s.get("verification");
        assertEquals(List.of("checked", "serializable", "txns_checked", "anomalies", "invariants"), fields(v));
        assertTrue(v.get("checked").asBoolean());
        assertTrue(v.get("serializable").asBoolean());
        assertEquals(12345, v.get("txns_checked").asLong());
        assertTrue(v.get("invariants").get("total_money").asBoolean());
        assertEquals(0.125, s.get("extra").get("fallback_rate").asDouble());
        assertEquals(List.of("events", "commits_total", "wall_s", "cpu_s"), fields(s.get("sim")));
        assertEquals(987654, s.get("sim").get("events").asLong());
        assertEquals(List.of("rcc_version", "git", "jvm", "os", "cores"), fields(s.get("environment")));
    }

    @Test
    void noExecuteWithoutExecutionNoExtraWhenEmptyNoSimBlockOnLocal() throws Exception {
        RunResult r = SampleResults.sample("local");
        r.execute.reset();
        r.extra.clear();
        JsonNode s = JSON.readTree(SummaryJson.toJson(r));
        assertFalse(s.has("extra"));
        assertFalse(s.has("sim"));
        assertEquals(List.of("READ", "LOCK", "COMMIT"), fields(s.get("stages")));
        assertEquals(0.6, s.get("stages").get("COMMIT").get("share").asDouble());
        List<String> f = fields(s);
        assertEquals("environment", f.get(f.size() - 1));
        assertEquals("warnings", f.get(f.size() - 2));
    }

    @Test
    void emptyRunHasZerosNotErrors() throws Exception {
        RunResult r = new RunResult();
        r.config = SampleResults.config("sim", false);
        JsonNode s = JSON.readTree(SummaryJson.toJson(r));
        assertEquals(0, s.get("commits").asLong());
        assertEquals(0.0, s.get("throughput_tps").asDouble());
        assertEquals(0.0, s.get("latency_us").get("p99").asDouble());
        assertFalse(s.get("verification").get("checked").asBoolean());
    }

    @Test
    void deterministicPlainNumbersAndLocaleIndependent() throws Exception {
        RunResult r = SampleResults.sample("sim");
        r.measuredS = 0.5;
        for (int i = 0; i < 9_000_000; i += 1000) r.total.commits += 1000; // 9 M commits in 0.5 s
        Locale saved = Locale.getDefault();
        String a, b;
        try {
            a = SummaryJson.toJson(r);
            Locale.setDefault(Locale.GERMANY);
            b = SummaryJson.toJson(r);
        } finally {
            Locale.setDefault(saved);
        }
        assertEquals(a, b);
        assertTrue(a.contains("\"throughput_tps\": 18002000.0"), a);
        assertFalse(a.contains("E+") || a.contains("E7"), "no scientific notation");
        assertTrue(a.endsWith("}\n"));
        assertFalse(a.contains("\r"));
    }

    @Test
    void readReturnsTheTree(@TempDir Path dir) throws Exception {
        Path f = dir.resolve("summary.json");
        SummaryJson.write(SampleResults.sample("sim"), f);
        JsonNode n = SummaryJson.read(f);
        assertEquals(1000, n.get("commits").asLong());
        ObjectNode o = (ObjectNode) n;
        assertTrue(o.has("environment"));
        assertTrue(Files.readString(f).contains("\"name\": \"sample\""));
    }
}
