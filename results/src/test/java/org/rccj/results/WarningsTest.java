package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunResult;

/** summary.json's warnings: few commits, a window shorter than the latency, an oversubscribed local run. */
class WarningsTest {
    @Test
    void aHealthyRunHasNone() throws Exception {
        RunResult r = SampleResults.sample("sim");
        assertEquals(List.of(), Warnings.of(r, 2));
        JsonNode s = new ObjectMapper().readTree(SummaryJson.toJson(r));
        assertTrue(s.get("warnings").isArray() && s.get("warnings").isEmpty(), s.toString());
    }

    @Test
    void noOrFewCommits() throws Exception {
        RunResult r = SampleResults.sample("sim");
        r.total.commits = 0;
        r.total.latency.reset();
        List<String> w = Warnings.of(r, 2);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("no commits"), w.get(0));

        RunResult few = SampleResults.sample("sim");
        few.total.latency.reset();
        few.total.commits = 12;
        for (int i = 0; i < 12; i++) few.total.latency.record(10_000);
        w = Warnings.of(few, 2);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("only 12 commits"), w.get(0));
        JsonNode s = new ObjectMapper().readTree(SummaryJson.toJson(few));
        assertTrue(s.get("warnings").get(0).asText().startsWith("only 12 commits"), s.get("warnings").toString());
        assertTrue(ConsoleReport.render(few).contains("WARNING       only 12 commits"), ConsoleReport.render(few));
    }

    @Test
    void aPreloadThatDidNotFit() {
        RunResult r = SampleResults.sample("sim");
        r.extra.put("location_cache_preloaded", 1.0);
        assertEquals(List.of(), Warnings.of(r, 2), "a preload that held every tuple is no warning");
        r.extra.put("location_cache_preloaded", 0.25);
        List<String> w = Warnings.of(r, 2);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("held 25.0% of the loaded tuples") && w.get(0).contains("location_cache.mb"), w.get(0));
    }

    @Test
    void windowShorterThanTheLatency() {
        RunResult r = SampleResults.sample("sim");
        r.measuredS = 15e-6;                    // 15 us window, transactions of 10 and 20 us
        List<String> w = Warnings.of(r, 2);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).contains("shorter than the longest transaction"), w.get(0));
    }

    @Test
    void oversubscribedLocalRunsOnly() {
        RunResult local = SampleResults.sample("local");   // 3 nodes x 2 threads = 6 workers
        local.config = SampleResults.config("local", true, 1000.0);
        assertEquals(List.of(), Warnings.of(local, 6));
        List<String> w = Warnings.of(local, 4);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("oversubscribed: 6 worker threads"), w.get(0));
        assertEquals(List.of(), Warnings.of(SampleResults.sample("sim"), 1), "sim runs in virtual time: cores do not matter");
    }

    /** A local run of 1 s on a host of {@code cores} cores with the given load. */
    private static RunResult localRun(double durationMs, org.rccj.framework.run.HostLoad h) {
        RunResult r = SampleResults.sample("local");
        r.config = SampleResults.config("local", true, durationMs);
        r.hostLoad = h;
        return r;
    }

    @Test
    void wallClockNoiseIsRecordedAndFlagged() throws Exception {
        // quiet host (load 0.5 on 16 cores for 6 threads), steady timeline, 1 s window: nothing to say
        RunResult quiet = localRun(1000, new org.rccj.framework.run.HostLoad(0.5, 6.2, 0.001, 40, 16));
        assertEquals(List.of(), HostNoise.warnings(quiet));
        // a busy host: load 18 before, on 2 cores, and 6 worker threads
        RunResult busy = localRun(1000, new org.rccj.framework.run.HostLoad(18.02, 19.5, 0.05, 9000, 2));
        List<String> w = HostNoise.warnings(busy);
        assertTrue(w.stream().anyMatch(x -> x.startsWith("busy host: load average 18.02 before the run and 19.50 after, on 2 cores, and the run"
                + " needs 6 for its worker threads")), w.toString());
        assertTrue(w.stream().anyMatch(x -> x.startsWith("the hypervisor stole 5.0% of the host's CPU time")), w.toString());
        // uneven throughput within the window: 240, 80, 250, 250 commits per interval
        RunResult uneven = localRun(1000, new org.rccj.framework.run.HostLoad(0.5, 0.5, 0, 0, 16));
        uneven.timeline = new long[] {240, 80, 250, 250};
        assertTrue(HostNoise.warnings(uneven).stream().anyMatch(x -> x.startsWith("throughput varies by 41% (coefficient of variation of the 4"
                + " timeline intervals, bound 15%)")), HostNoise.warnings(uneven).toString());
        // a 50 ms wall-clock window says it is too short; sim's virtual window never does
        assertTrue(HostNoise.warnings(localRun(50, null)).get(0).startsWith("measured window 50 ms on a wall-clock fabric: too short for a stable"
                + " figure"), HostNoise.warnings(localRun(50, null)).toString());
        assertEquals(List.of(), HostNoise.warnings(SampleResults.sample("sim")));

        // summary.json records the load in environment (and sim's has none)
        com.fasterxml.jackson.databind.JsonNode s = new com.fasterxml.jackson.databind.ObjectMapper().readTree(SummaryJson.toJson(busy));
        com.fasterxml.jackson.databind.JsonNode hl = s.path("environment").path("host_load");
        assertEquals(18.02, hl.path("load_avg_1m_before").asDouble(), 1e-9);
        assertEquals(19.5, hl.path("load_avg_1m_after").asDouble(), 1e-9);
        assertEquals(0.05, hl.path("steal_share").asDouble(), 1e-9);
        assertEquals(9000, hl.path("involuntary_context_switches").asLong());
        assertTrue(new com.fasterxml.jackson.databind.ObjectMapper().readTree(SummaryJson.toJson(SampleResults.sample("sim")))
                .path("environment").path("host_load").isMissingNode());
    }

    /** warmup_ms: auto (decision 0210): summary.json's warmup, timeline.csv's warm-up rows, and what it warns about. */
    @Test
    void anAutoWarmUpIsRecordedAndItsBoundOrDisagreeingNodesFlagged() throws Exception {
        RunResult r = localRun(1000, new org.rccj.framework.run.HostLoad(0.5, 0.5, 0, 0, 16));
        r.timeline = new long[] {250, 250, 250, 250};
        r.timelineIntervalMs = 250;
        r.warmup = new RunResult.Warmup(30_000, 2600, true, 200, new double[] {200, 400.5}, new long[] {20, 40},
                new double[] {100, 199.5}, new double[] {2600, 2600});
        assertEquals(List.of(), HostNoise.warnings(r));
        JsonNode w = new ObjectMapper().readTree(SummaryJson.toJson(r)).path("warmup");
        assertEquals("auto", w.path("mode").asText());
        assertEquals(2600.0, w.path("took_ms").asDouble());
        assertEquals(30000.0, w.path("bound_ms").asDouble());
        assertTrue(w.path("steady").asBoolean());
        assertEquals("[100.0,199.5]", w.path("interval_tps").toString());
        assertEquals("[200.0,400.5]", w.path("interval_end_ms").toString());
        assertEquals("[2600.0,2600.0]", w.path("node_window_start_ms").toString());
        String csv = TimelineCsv.toCsv(r);
        assertTrue(csv.startsWith("t_ms,commits,throughput_tps\n-2400.0,20,100.0\n-2199.5,40,199.5\n250.0,250,1000.0\n"), csv);

        r.warmup = new RunResult.Warmup(2000, 2100, false, 200, new double[] {200}, new long[] {20}, new double[] {100},
                new double[] {2100, Double.NaN});
        List<String> warned = HostNoise.warnings(r);
        assertTrue(warned.stream().anyMatch(x -> x.startsWith("warm-up: the throughput was not steady within 2000 ms (warmup_ms: auto; steady when")
                && x.contains("raise the bound (warmup_ms=auto:MAX_MS)")), warned.toString());
        assertTrue(warned.contains("warm-up: the nodes' measured windows started at different times (ms after the run's start, per node: 2100.000,"
                + " never): the nodes measured different windows"), warned.toString());
        assertTrue(new ObjectMapper().readTree(SummaryJson.toJson(localRun(1000, null))).path("warmup").isMissingNode(), "a fixed warm-up: no warmup object");
    }

    @Test
    void repeatsThatDisagreeBeyondTheirIntervalAreFlaggedOnWallClockFabrics() {
        List<RunMetrics> local = List.of(metrics("local", 39_500), metrics("local", 78_000), metrics("local", 60_000));
        double[] t = {39_500, 78_000, 60_000};
        StudentT.Interval iv = StudentT.interval95(t);
        String w = HostNoise.repeatsDisagree(local, iv.mean(), iv.halfWidth());
        assertTrue(w != null && w.startsWith("repeats disagree: the 3 seeds' throughput 95% CI is +-"), w);
        assertEquals(null, HostNoise.repeatsDisagree(List.of(metrics("sim", 39_500), metrics("sim", 78_000)), 58_750, 244_000),
                "sim: seeds differ by design, not by host noise");
        assertEquals(null, HostNoise.repeatsDisagree(List.of(metrics("local", 100), metrics("local", 101)), 100.5, 6.35));
        // the table says it in the point's warnings
        String csv = ResultTable.csv(List.of("coroutines"), List.of(new ResultTable.Row(List.of("1"), local)));
        assertTrue(csv.contains("repeats disagree"), csv);
    }

    private static RunMetrics metrics(String fabric, double tps) {
        return RunMetrics.builder().dir(java.nio.file.Path.of("x")).name("x").protocol("occ").workload("smallbank").fabric(fabric)
                .seed(1).commits(1000).throughputTps(tps).latencyMeanUs(10).latencyP50Us(9).latencyP90Us(12).latencyP99Us(20)
                .abortRate(0.01).build();
    }
}
