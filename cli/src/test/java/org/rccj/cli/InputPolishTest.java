package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.experiments.Provenance;

/** Issue 23 items 12-13: checks before work, the OS's own reason, names that follow the overrides, "did you mean". */
class InputPolishTest {
    @TempDir Path dir;

    private Path real() throws Exception {
        return Cli.file(dir, "smallbank-occ.yaml", "name: smallbank-occ\nprotocol: occ\nnodes: 3\nthreads: 1\ncoroutines: 2\n"
                + "workload:\n  name: smallbank\n  accounts_per_thread: 1000\nduration_ms: 1\nwarmup_ms: 0\nverify: false\n");
    }

    @Test
    void misspelledKeysAndCommandsGetASuggestion() throws Exception {
        Cli.run(dir, "run", real().toString(), "--set", "corutines=4").assertBadInput("corutines: unknown key (did you mean 'coroutines'?)");
        Cli.run(dir, "run", real().toString(), "--set", "workload.acounts_per_thread=4")
                .assertBadInput("unknown key for workload smallbank (did you mean 'accounts_per_thread'?)");
        Cli.Outcome o = Cli.run(dir, "runn", "x").assertBadInput("unknown command 'runn' (did you mean 'run'?)");
        assertFalse(o.err().contains("(planned: )"), "no empty list of planned commands: " + o.err());
        Cli.run(dir, "help", "enumrate").assertBadInput("(did you mean 'enumerate'?)");
        Cli.run(dir, "run", real().toString(), "--set", "nodez=4").assertBadInput("nodez: unknown key (did you mean 'nodes'?)");
        Cli.run(dir, "run", real().toString(), "--set", "zzzzzz=4").assertBadInput("zzzzzz: unknown key; accepted top-level keys");
    }

    @Test
    void aShortWarmUpOnTcpIsWarnedAbout() throws Exception {
        Cli.Outcome o = Cli.run(dir, new FakeRuns(), "run", real().toString(), "--set", "fabric=tcp", "--set", "warmup_ms=5", "--out", "t").assertOk();
        assertTrue(o.err().contains("rcc: warning: warm-up 5 ms is shorter than a tcp run needs (>= 1000 ms"), o.err());
        Cli.Outcome ok = Cli.run(dir, new FakeRuns(), "run", real().toString(), "--set", "fabric=tcp", "--set", "warmup_ms=1000", "--out", "t2").assertOk();
        assertFalse(ok.err().contains("warning"), ok.err());
        Cli.Outcome sim = Cli.run(dir, new FakeRuns(), "run", real().toString(), "--out", "t3");
        assertFalse(sim.err().contains("warning"), "sim needs no warm-up warning: " + sim.err());
        // local runs on the wall clock in this JVM, which compiles the code during its first second
        Cli.Outcome local = Cli.run(dir, new FakeRuns(), "run", real().toString(), "--set", "fabric=local", "--set", "warmup_ms=5", "--out", "t4").assertOk();
        assertTrue(local.err().contains("rcc: warning: warm-up 5 ms is shorter than a local run needs (>= 1000 ms: the JVM compiles the code"), local.err());
        // a batch on a wall-clock fabric warns once, before it runs
        Cli.Outcome sweep = Cli.run(dir, new FakeRuns(), "sweep", real().toString(), "--set", "fabric=local", "--set", "warmup_ms=5", "--vary", "coroutines=1,2", "--out", "s").assertOk();
        assertEquals(1, sweep.errLines().stream().filter(l -> l.startsWith("rcc: warning: warm-up 5 ms is shorter than a local run needs")).count(), sweep.err());
        Cli.Outcome simSweep = Cli.run(dir, new FakeRuns(), "sweep", real().toString(), "--vary", "coroutines=1,2", "--out", "s2").assertOk();
        assertFalse(simSweep.err().contains("warning"), simSweep.err());
    }

    @Test
    void hadesOnLocalIsRefusedBeforeAnythingRuns() throws Exception {
        Cli.Outcome o = Cli.run(dir, "run", real().toString(), "--set", "protocol=hades", "--set", "fabric=local")
                .assertBadInput("protocol hades needs its simulated Bloom-filter/SmartNIC hardware");
        assertFalse(o.err().contains("running"), o.err());
    }

    @Test
    void theOsReasonIsAboutTheDirectoryItRefusesToWriteIn() throws Exception {
        if (!Files.isDirectory(Path.of("/proc/self"))) return; // Linux only; elsewhere nothing to check
        Cli.run(dir, "run", real().toString(), "--out", "/proc/self/x")
                .assertBadInput("--out /proc/self/x: cannot write: the OS refuses to create a file in the existing directory /proc/self: ");
    }

    @Test
    void aRunIsNamedAfterTheWorkloadAndProtocolTheOverridesChose() throws Exception {
        Cli.Outcome o = Cli.run(dir, new FakeRuns(), "run", real().toString(), "--set", "protocol=nowait").assertOk();
        assertTrue(Files.isRegularFile(dir.resolve("out/smallbank-nowait/summary.json")), "named smallbank-nowait, not smallbank-occ: " + o.err() + o.out().lines().filter(l -> l.startsWith("results")).toList());
        assertTrue(o.err().contains("named 'smallbank-nowait' after the protocol and workload"), o.err());
        Cli.run(dir, new FakeRuns(), "run", real().toString(), "--set", "protocol=nowait", "--set", "name=mine").assertOk();
        assertTrue(Files.isRegularFile(dir.resolve("out/mine/summary.json")), "an explicit name wins");
        Cli.run(dir, new FakeRuns(), "run", real().toString(), "--set", "seed=3").assertOk();
        assertTrue(Files.isRegularFile(dir.resolve("out/smallbank-occ/summary.json")), "other overrides keep the file's name");
    }

    @Test
    void unrelatedExperimentsAreNamedByProtocolOrWorkload() throws Exception {
        ObjectMapper m = new ObjectMapper();
        String d = Provenance.firstDifference("", m.readTree("{\"coroutines\":1,\"protocol\":\"occ\",\"workload\":{\"name\":\"tpcc\",\"a\":1}}"),
                m.readTree("{\"coroutines\":8,\"protocol\":\"occ\",\"workload\":{\"name\":\"ycsb\",\"b\":2}}"));
        assertEquals("workload.name: \"tpcc\" here, \"ycsb\" there", d);
    }

    @Test
    void listingsHideTestOnlySettingsAndKeepColumnsAligned() throws Exception {
        for (List<String> args : List.of(List.of("list"), List.of("help", "run"))) {
            Cli.Outcome o = Cli.run(dir, args.toArray(String[]::new)).assertOk();
            assertFalse(o.out().contains("cpu_local_atomics"), args + ": a test-only setting is not shown");
            assertTrue(o.out().contains("faults.incoherent_atomics"), args + ": the user-facing faults are");
            // every setting's type column starts at the same place within its indentation
            java.util.Map<Integer, java.util.Set<Integer>> typeAt = new java.util.HashMap<>();
            for (String l : o.out().lines().toList()) {
                java.util.regex.Matcher mt = java.util.regex.Pattern.compile("^( +)\\S.*? (boolean|int|long|double|string|choice) +default ").matcher(l);
                if (mt.find()) typeAt.computeIfAbsent(mt.group(1).length(), k -> new java.util.TreeSet<>()).add(mt.start(2) - mt.group(1).length());
            }
            assertFalse(typeAt.isEmpty(), o.out());
            for (var e : typeAt.entrySet()) assertEquals(1, e.getValue().size(), args + ": type columns at indent " + e.getKey() + ": " + e.getValue());
        }
    }
}
