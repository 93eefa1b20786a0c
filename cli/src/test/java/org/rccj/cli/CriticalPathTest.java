package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.experiments.Exit;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.PathTotals;
import org.rccj.primitives.CriticalPath;
import org.rccj.results.SummaryJson;

/**
 * The critical-path split (docs/decisions/0139-critical-path-split.md): on sim the terms of every wait add up to its
 * latency in integer ns, for a one-sided and an RPC stage at 1 and 10 coroutines; summary.json has critical_path on
 * sim and not on local; {@code rcc run --explain} prints terms that sum to the op's latency, with their parameters.
 */
class CriticalPathTest {
    @TempDir Path dir;

    private Path config(String fabric, String hybrid, int coroutines) throws Exception {
        return Files.writeString(dir.resolve(fabric + hybrid + coroutines + ".yaml"), "name: cp\nfabric: " + fabric + "\nnodes: 2\nthreads: 2\n"
                + "coroutines: " + coroutines + "\nprotocol: nowait\nhybrid: " + hybrid + "\nreplication: 2\npassive_ack: false\n"
                + "workload: {name: smallbank, accounts_per_thread: 1000, hot_probability: 0}\nwarmup_ms: 0.2\nduration_ms: "
                + (fabric.equals("sim") ? "1" : "100") + "\nseed: 3\n");
    }

    @ParameterizedTest(name = "{0}, {1} coroutines")
    @CsvSource({"all-onesided, 1", "all-onesided, 10", "all-rpc, 1", "all-rpc, 10"})
    void termsAddUpToEveryWait(String hybrid, int coroutines) throws Exception {
        Config c = RunCommand.resolve(config("sim", hybrid, coroutines), new String[0]);
        RunResult r = ExperimentRunner.run(c, new PrintStream(OutputStream.nullOutputStream()));
        PathTotals p = r.paths;
        int lock = Stage.LOCK.ordinal();
        assertTrue(p.calls[lock] > 0, "LOCK waited for no op");
        for (int b = 0; b <= PathTotals.OUTSIDE; b++) {
            long sum = 0;
            for (int t = 0; t < CriticalPath.COUNT; t++) {
                assertTrue(p.ns[b][t] >= 0, PathTotals.name(b) + " " + CriticalPath.TERMS.get(t).key() + " < 0");
                sum += p.ns[b][t];
            }
            assertEquals(p.latencyNs[b], sum, PathTotals.name(b) + ": the terms do not add up to the waits' latency");
            if (p.sample[b] != null) assertEquals(p.sampleLatencyNs[b], java.util.Arrays.stream(p.sample[b]).sum(), PathTotals.name(b) + " sample");
        }
        // the waits lie inside the stage's calls
        assertTrue(p.latencyNs[lock] <= r.stages.get(Stage.LOCK).sum(), "LOCK's waits exceed LOCK's time");
        long wireOut = p.ns[lock][CriticalPath.WIRE_OUT], dispatch = p.ns[lock][CriticalPath.RPC_DISPATCH];
        assertTrue(wireOut > 0, "LOCK crossed no wire");
        if (hybrid.equals("all-rpc")) {
            // every wait of an RPC LOCK is carried by an RPC (own-node ones too: local_access network): its dispatch is on
            // the path once, at cpu.rpc_dispatch_ns
            assertEquals(220L * p.calls[lock], dispatch, "one dispatch per wait");
        } else {
            assertEquals(0, dispatch, "a one-sided LOCK has no RPC handler on its path");
            assertTrue(p.ns[lock][CriticalPath.POLL_CPU] == 40L * p.calls[lock], "a completion poll (cpu.poll_cq_ns) per wait");
        }
        if (coroutines == 10) assertTrue(p.ns[lock][CriticalPath.RESUME_WAIT] > 20L * p.calls[lock], "10 coroutines take turns");
    }

    @Test
    void everyTermHasItsPlaceInAnOp() {
        org.rccj.primitives.Op op = new org.rccj.primitives.Op();
        // COUNT is the list's size: Op has a field for each term and none beyond them
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> op.term(CriticalPath.COUNT));
        op.pathStart(100);
        for (int t = 0; t < CriticalPath.COUNT; t++) op.mark(t, 100 + 10L * (t + 1));
        op.mark(CriticalPath.RPC_RECEIVE, 100 + 10L * CriticalPath.COUNT + 7);
        for (int t = 0; t < CriticalPath.COUNT; t++) assertEquals(t == CriticalPath.RPC_RECEIVE ? 17 : 10, op.term(t), "term " + t);
        assertEquals((1 << CriticalPath.COUNT) - 1, op.pathSet);
    }

    @Test
    void termsAddUpForEveryProtocol() throws Exception {
        for (org.rccj.framework.spi.ProtocolFactory pf : org.rccj.framework.spi.Registry.protocols()) {
            if (pf.name().contains("-") || !pf.getClass().getName().startsWith("org.rccj.protocols.")) continue;   // test-only protocols
            for (String code : List.of("all-rpc", "all-onesided")) {
                Config c = RunCommand.resolve(config("sim", code, 4), new String[] {"protocol=" + pf.name()});
                assertEquals(pf.name(), c.protocol());
                PathTotals p = ExperimentRunner.run(c, new PrintStream(OutputStream.nullOutputStream())).paths;
                for (int b = 0; b <= PathTotals.OUTSIDE; b++) {
                    assertEquals(p.latencyNs[b], java.util.Arrays.stream(p.ns[b]).sum(), pf.name() + " " + code + " " + PathTotals.name(b));
                }
            }
        }
    }

    @Test
    void summaryHasTheBlockOnSimOnly() throws Exception {
        Cli.runReal(dir, new String[] {"run", config("sim", "all-onesided", 2).toString(), "--out", "out/sim"}).assertOk();
        JsonNode sim = SummaryJson.read(dir.resolve("out/sim/summary.json"));
        JsonNode lock = sim.get("critical_path").get("LOCK");
        assertTrue(lock.get("calls").asLong() > 0, sim.get("critical_path").toString());
        double sum = 0;
        for (JsonNode t : lock.get("terms_ns")) sum += t.asDouble();
        assertEquals(lock.get("latency_ns").asDouble(), sum, 0.05 * CriticalPath.COUNT + 1e-9, lock.toString());
        List<String> csv = Files.readAllLines(dir.resolve("out/sim/stages.csv"));
        assertTrue(csv.get(0).contains(",cp_calls,cp_latency_ns,cp_requester_cpu_ns,"), csv.get(0));
        String lockRow = csv.stream().filter(l -> l.startsWith("LOCK,")).findFirst().orElseThrow();
        assertEquals(lock.get("calls").asText(), lockRow.split(",", -1)[7]);

        Cli.runReal(dir, new String[] {"plot", "out/sim"}).assertOk();
        assertTrue(Files.size(dir.resolve("out/sim/critical-path.png")) > 0 && Files.size(dir.resolve("out/sim/critical-path.svg")) > 0);

        Cli.runReal(dir, new String[] {"run", config("local", "all-onesided", 2).toString(), "--out", "out/local"}).assertOk();
        JsonNode local = SummaryJson.read(dir.resolve("out/local/summary.json"));
        assertNull(local.get("critical_path"), "no critical paths on local");
        Cli.runReal(dir, new String[] {"plot", "out/local"}).assertOk();
        assertFalse(Files.exists(dir.resolve("out/local/critical-path.png")), "no critical-path figure without critical paths");
        for (String l : Files.readAllLines(dir.resolve("out/local/stages.csv")).subList(1, 2)) {
            String[] c = l.split(",", -1);
            for (int i = 7; i < c.length; i++) assertEquals("", c[i], l);
        }
    }

    @Test
    void explainPrintsTermsThatAddUp() throws Exception {
        Path cfg = config("sim", "all-rpc", 2);
        Cli.Outcome o = Cli.runReal(dir, new String[] {"run", cfg.toString(), "--out", "out/x", "--explain", "lock"}).assertOk();
        List<String> lines = o.out().lines().toList();
        int head = lines.indexOf(lines.stream().filter(l -> l.startsWith("term ")).findFirst().orElseThrow());
        double mean = 0;
        long sample = 0;
        int i = head + 1;
        for (; !lines.get(i).startsWith("= latency"); i++) {
            String[] f = lines.get(i).trim().split("\\s+");
            assertTrue(CriticalPath.index(f[0]) >= 0, lines.get(i));
            mean += Double.parseDouble(f[1]);
            sample += Long.parseLong(f[2]);
        }
        String[] total = lines.get(i).substring("= latency".length()).trim().split("\\s+");
        assertEquals(Long.parseLong(total[1]), sample, "the sampled op's terms add up to its latency exactly");
        assertEquals(Double.parseDouble(total[0]), mean, 0.05 * (i - head) + 1e-9);
        assertTrue(o.out().contains("wire.one_way_ns = 850") && o.out().contains("cpu.rpc_dispatch_ns = 220"), o.out());
        assertTrue(o.out().contains("wait: "), o.out());
        // per call and per committed transaction (issue 42 item 5): calls per transaction x the mean call, with the counts
        String per = lines.stream().filter(l -> l.startsWith("per call ")).findFirst().orElseThrow(() -> new AssertionError(o.out()));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("per call ([0-9.]+) us; per committed transaction ([0-9.]+) calls x ([0-9.]+) us"
                + " = ([0-9.]+) us \\(([0-9,]+) calls for ([0-9,]+) committed transactions, in ([0-9,]+) invocations of LOCK; .*").matcher(per);
        assertTrue(m.matches(), per);
        long calls = Long.parseLong(m.group(5).replace(",", "")), commits = Long.parseLong(m.group(6).replace(",", ""));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith(String.format(java.util.Locale.ROOT, "critical path of LOCK: %,d calls", calls))), o.out());
        assertEquals((double) calls / commits, Double.parseDouble(m.group(2)), 0.01 * calls / commits);
        assertEquals(Double.parseDouble(m.group(2)) * Double.parseDouble(m.group(3)), Double.parseDouble(m.group(4)), 0.01 * Double.parseDouble(m.group(4)) + 0.01);
        assertEquals(Double.parseDouble(total[0]) / 1e3, Double.parseDouble(m.group(1)), 0.006, "per call: the mean latency above");

        Cli.Outcome bad = Cli.runReal(dir, new String[] {"run", cfg.toString(), "--explain", "NOPE"});
        assertEquals(Exit.BAD_INPUT, bad.code());
        assertTrue(bad.err().strip().lines().count() == 1 && bad.err().contains("accepted: LOCK, LOG, COMMIT, RELEASE, outside_stages"), bad.err());
        Cli.Outcome local = Cli.runReal(dir, new String[] {"run", config("local", "all-rpc", 1).toString(), "--explain", "LOCK"});
        assertEquals(Exit.BAD_INPUT, local.code());
        assertTrue(local.err().contains("sim only"), local.err());
    }
}
