package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.AutoWarmup;

/** warmup_ms: auto end to end on local (decision 0210): the summary's warmup object, timeline.csv's warm-up rows, bad values. */
class WarmupAutoRunTest {
    @TempDir Path dir;

    private Path config() throws Exception {
        return Cli.file(dir, "auto.yaml", "name: auto\nfabric: local\nprotocol: occ\nnodes: 2\nthreads: 1\ncoroutines: 2\nreplication: 2\n"
                + "workload:\n  name: smallbank\n  accounts_per_thread: 1000\nwarmup_ms: auto:4000\nduration_ms: 300\nverify: true\n");
    }

    @Test
    void aLocalRunMeasuresAfterTheWarmUpItChoseAndSaysHowLongItTook() throws Exception {
        Cli.Outcome o = Cli.runReal(dir, new String[] {"run", config().toString(), "--out", "out/auto"}).assertOk();
        assertTrue(o.err().contains("warm-up until steady (at most 4000 ms) + 300 ms measured"), o.err());
        assertFalse(o.err().contains("is shorter than a local run needs"), "auto is no short warm-up: " + o.err());
        JsonNode s = TcpClusterTest.summary(dir.resolve("out/auto"));
        assertEquals("auto:4000", s.path("config").path("warmup_ms").asText());
        JsonNode w = s.path("warmup");
        assertEquals("auto", w.path("mode").asText(), s.toString());
        assertEquals(4000.0, w.path("bound_ms").asDouble());
        assertEquals(AutoWarmup.RULE, w.path("rule").asText());
        double took = w.path("took_ms").asDouble();
        // at least the rule's two halves of intervals, at most the bound (plus the lead and a loaded host's late wake-up)
        assertTrue(took >= 2 * AutoWarmup.HALF * AutoWarmup.BUCKET_MS, "took " + took);
        assertTrue(took <= 4000 + AutoWarmup.LEAD_MS + 500, "took " + took);
        boolean steady = w.path("steady").asBoolean();
        assertEquals(!steady, s.path("warnings").toString().contains("warm-up: the throughput was not steady within 4000 ms"), s.path("warnings").toString());
        assertTrue(o.err().contains(steady ? "rcc: warm-up steady after" : "rcc: warning: warm-up: the throughput was not steady"), o.err());
        int intervals = w.path("interval_tps").size();
        assertTrue(intervals >= 2 * AutoWarmup.HALF && intervals == w.path("interval_end_ms").size(), w.toString());
        // both nodes' workers measured from the same instant, the one the watch chose
        assertEquals(2, w.path("node_window_start_ms").size());
        for (JsonNode n : w.path("node_window_start_ms")) assertEquals(took, n.asDouble(), 1e-3, w.toString());
        assertEquals(0.3, s.path("measured_s").asDouble(), 1e-9);
        assertTrue(s.path("commits").asLong() > 0 && s.path("verification").path("serializable").asBoolean(), s.toString());
        // timeline.csv: the warm-up's intervals first (t_ms <= 0), then the window's 20
        List<String> rows = Files.readAllLines(dir.resolve("out/auto/timeline.csv"));
        assertEquals("t_ms,commits,throughput_tps", rows.get(0));
        assertEquals(1 + intervals + 20, rows.size(), String.join("\n", rows));
        for (int i = 1; i <= intervals; i++) assertTrue(Double.parseDouble(rows.get(i).split(",")[0]) <= 0, rows.get(i));
        assertTrue(Double.parseDouble(rows.get(intervals + 1).split(",")[0]) > 0);
    }

    @Test
    void badValuesAndSimAreRefusedWithOneLine() throws Exception {
        Path cfg = config();
        String expected = "expected a number in [0, 3600000], auto or auto:MAX_MS (MAX_MS in (0, 3600000])";
        Cli.run(dir, "run", cfg.toString(), "--set", "warmup_ms=-1").assertBadInput("warmup_ms: '-1' is not accepted; " + expected);
        Cli.run(dir, "run", cfg.toString(), "--set", "warmup_ms=autox").assertBadInput("warmup_ms: 'autox' is not accepted; " + expected);
        Cli.run(dir, "run", cfg.toString(), "--set", "warmup_ms=auto:0").assertBadInput("warmup_ms: 'auto:0' is not accepted");
        Cli.run(dir, "run", cfg.toString(), "--set", "fabric=sim").assertBadInput(
                "warmup_ms: auto waits until a wall-clock run's throughput is steady (local, tcp, ucx); sim runs in virtual time",
                "give a number of virtual ms");
    }

    @Test
    void listAndSchemaSayWhatAutoDoes() throws Exception {
        String help = Cli.run(dir, "help", "run").assertOk().out();
        assertTrue(help.contains("auto or auto:MAX_MS") && help.contains("auto (local, tcp, ucx): until the throughput is steady, at most 30000 ms"), help);
        String schema = Cli.run(dir, "list", "schema").assertOk().out();
        assertTrue(schema.contains("\"pattern\" : \"^auto(:[0-9]+(\\\\.[0-9]+)?)?$\"") || schema.contains("\"pattern\": \"^auto(:[0-9]+(\\\\.[0-9]+)?)?$\""), schema);
    }
}
