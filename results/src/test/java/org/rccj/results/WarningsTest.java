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
        assertEquals(List.of(), Warnings.of(local, 6));
        List<String> w = Warnings.of(local, 4);
        assertEquals(1, w.size(), w.toString());
        assertTrue(w.get(0).startsWith("oversubscribed: 6 worker threads"), w.get(0));
        assertEquals(List.of(), Warnings.of(SampleResults.sample("sim"), 1), "sim runs in virtual time: cores do not matter");
    }
}
