package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.results.SummaryJson;
import org.rccj.experiments.Runner;
import org.rccj.experiments.Exit;

/** {@code rcc run} end to end, with a stand-in for the experiment runner. */
class RunCommandTest {
    @TempDir Path dir;

    @Test
    void writesResultsPrintsReportAndResultsLine() throws Exception {
        Path f = Cli.file(dir, "smallbank-occ.yaml", Cli.yaml("verify: true"));
        AtomicReference<Config> seen = new AtomicReference<>();
        Cli.Outcome o = Cli.run(dir, (c, progress) -> {
            seen.set(c);
            progress.println("loading...");
            return Cli.result(c, Cli.passed());
        }, "run", f.toString(), "--set", "hybrid=READ+COMMIT", "--set", "workload.hot_probability=0.5");
        assertEquals(Exit.OK, o.code(), o.err());
        assertEquals(18, seen.get().hybrid().code());
        assertTrue(o.err().startsWith("running 'smallbank-occ': fakeproto hybrid READ+COMMIT (18) on fakewl"), o.err());
        assertTrue(o.err().contains("loading..."), "runner progress goes to stderr");
        assertTrue(o.out().contains("100 K/s"), o.out());
        assertTrue(o.out().contains("serializable: yes (1000 txns checked); invariants: total_money ok"), o.out());
        List<String> lines = o.out().lines().toList();
        assertEquals("results: " + Path.of("out", "smallbank-occ"), lines.get(lines.size() - 1));
        Path res = dir.resolve("out").resolve("smallbank-occ");
        JsonNode s = SummaryJson.read(res.resolve("summary.json"));
        assertEquals("smallbank-occ", s.get("name").asText());
        assertEquals(0.5, s.get("config").get("workload").get("hot_probability").asDouble());
        assertTrue(Files.exists(res.resolve("stages.csv")));
        assertTrue(Files.exists(res.resolve("timeline.csv")));
    }

    @Test
    void outOptionAndRerunReplaces() throws Exception {
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml("name: my run/1"));
        Runner ok = (c, p) -> Cli.result(c, RunResult.Verification.notChecked());
        Cli.run(dir, ok, "run", f.toString()).assertOk();
        assertTrue(Files.isDirectory(dir.resolve("out").resolve("my_run_1")), "name made safe as a directory");
        Cli.Outcome o2 = Cli.run(dir, ok, "run", f.toString(), "--out", "elsewhere/x").assertOk();
        assertTrue(o2.out().endsWith("results: " + Path.of("elsewhere", "x") + System.lineSeparator()), o2.out());
        Cli.run(dir, ok, "run", f.toString(), "--out=elsewhere/x").assertOk();
        try (var s = Files.list(dir.resolve("elsewhere"))) {
            assertEquals(List.of("x"), s.map(p -> p.getFileName().toString()).toList(), "no temporary directories left");
        }
    }

    @Test
    void failedVerificationExitsOne() throws Exception {
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml("verify: true"));
        RunResult.Verification bad = new RunResult.Verification(true, false, 10, List.of("cycle T1 -> T2 -> T1"), Map.of("total_money", true));
        Cli.Outcome o = Cli.run(dir, (c, p) -> Cli.result(c, bad), "run", f.toString());
        assertEquals(Exit.VERIFICATION_FAILED, o.code());
        assertTrue(o.out().contains("serializable: NO (10 txns checked, 1 anomalies)"), o.out());
        assertTrue(o.out().contains("anomaly: cycle T1 -> T2 -> T1"), o.out());
        assertTrue(o.err().contains("rcc: verification failed"), o.err());
        assertTrue(Files.exists(dir.resolve("out/exp/summary.json")), "results are written even when verification fails");

        RunResult.Verification invariant = new RunResult.Verification(true, true, 10, List.of(), Map.of("total_money", false));
        Cli.Outcome o2 = Cli.run(dir, (c, p) -> Cli.result(c, invariant), "run", f.toString());
        assertEquals(Exit.VERIFICATION_FAILED, o2.code());
        assertTrue(o2.out().contains("total_money FAILED"), o2.out());
    }

    @Test
    void failedChecksDoNotMatterWithoutVerify() throws Exception {
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml());
        Cli.Outcome o = Cli.run(dir, (c, p) -> Cli.result(c, RunResult.Verification.notChecked()), "run", f.toString()).assertOk();
        assertTrue(o.out().contains("verification  off"), o.out());
    }

    @Test
    void unexpectedExceptionIsOneLineNamingALogWithTheStackTrace() throws Exception {
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml());
        Cli.Outcome o = Cli.run(dir, (c, p) -> { throw new UnsupportedOperationException("being written"); }, "run", f.toString());
        assertEquals(Exit.INTERNAL_ERROR, o.code());
        String last = o.errLines().get(o.errLines().size() - 1);
        assertTrue(last.startsWith("rcc: internal error: java.lang.UnsupportedOperationException: being written; stack trace in "), o.err());
        assertFalse(o.err().contains("\tat "), "no stack trace on the terminal: " + o.err());
        Path log = Path.of(last.substring(last.indexOf("stack trace in ") + "stack trace in ".length()));
        try {
            String text = Files.readString(log);
            assertTrue(text.contains("command: rcc run " + f), text);
            assertTrue(text.contains("UnsupportedOperationException: being written") && text.contains("\tat "), text);
        } finally {
            Files.deleteIfExists(log);
        }
        assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    }

    @Test
    void outOfMemoryIsOneLine() throws Exception {
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml());
        Cli.Outcome o = Cli.run(dir, (c, p) -> { throw new OutOfMemoryError("Java heap space"); }, "run", f.toString());
        assertEquals(Exit.BAD_INPUT, o.code());
        String last = o.errLines().get(o.errLines().size() - 1);
        assertTrue(last.startsWith("rcc: out of memory (Java heap space): this JVM may use "), o.err());
        assertTrue(last.contains("run a smaller experiment"), last);
        assertFalse(o.err().contains("\tat "), o.err());
    }

    @Test
    void realRunnerIsCalledForAValidConfig() throws Exception {
        // Until the experiment runner and real protocols are merged, a valid config with the fake protocol
        // cannot run; what matters is that it is neither reported as bad input nor as success.
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml("duration_ms: 0.01", "warmup_ms: 0"));
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = Main.run(new String[] {"run", f.toString(), "--out", dir.resolve("out").toString()},
                new java.io.PrintStream(new java.io.ByteArrayOutputStream()), new java.io.PrintStream(err, true));
        assertTrue(err.toString().startsWith("running 'exp': fakeproto"), "config accepted, runner reached: " + err);
        assertTrue(code != Exit.OK, "the fake protocol cannot run: " + err);
    }
}
