package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.Config;
import org.rccj.results.CsvTable;

/** {@code rcc enumerate} and {@code rcc merge} with a deterministic stand-in runner (fakeproto: six stages, 64 codes). */
class EnumerateCommandTest {
    @TempDir Path dir;

    @Test
    void everyCodeRankedWithTheBestAndItsGain() throws Exception {
        FakeRuns runs = new FakeRuns();
        Cli.Outcome o = Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--jobs", "3", "--out", "e").assertOk();
        assertEquals(64, runs.calls.get());
        TreeSet<Integer> codes = new TreeSet<>();
        for (Config c : runs.configs) codes.add(c.hybrid().code());
        assertEquals(64, codes.size());
        CsvTable t = CsvTable.read(dir.resolve("e/hybrid.csv"));
        assertEquals(64, t.rows().size());
        assertEquals(List.of("code", "onesided", "loopback", "verified", "protocol", "workload"), t.keyColumns());
        assertEquals("off", t.get(0, "verified"), "the fake runs record no verification");
        // fakeproto declares no NIC-atomic stages of its own: the conservative default, every one-sided stage
        assertEquals("no", t.get(0, "loopback"));
        assertEquals("yes", t.get(18, "loopback"));
        for (int r = 0; r < 64; r++) assertEquals(Integer.toString(r), t.get(r, "code"), "sorted by code");
        assertEquals("all-rpc", t.get(0, "onesided"));
        assertEquals("READ+COMMIT", t.get(18, "onesided"));
        assertEquals("READ+LOCK+VALIDATE+LOG+COMMIT+RELEASE", t.get(63, "onesided"));
        assertTrue(Files.exists(dir.resolve("e/hybrid=35/summary.json")) && Files.exists(dir.resolve("e/hybrid=05/summary.json")),
                "one directory per code, zero-padded");
        assertTrue(o.out().contains("best: code 35 (READ+LOCK+VALIDATE)"), o.out());
        // best 1 + 1 + 1.6 + 2.2 + 3 x 2.5 = 13.3 us vs all-rpc 16 us, all-onesided 1 + 6 + 9 = 16 us
        // (each + 6 x (10 ns seed + 4 x 7 ns coroutines) + 4.5 ns); throughput by Little's law from rounded commits
        double best = 13.3 + 0.2325, pure = 16.0 + 0.2325;
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("gain over the better pure code \\(all-rpc, [^)]*\\): ([-+0-9.]+)% throughput")
                .matcher(o.out());
        assertTrue(m.find(), o.out());
        assertEquals(100 * (pure / best - 1), Double.parseDouble(m.group(1)), 0.05);
        assertTrue(o.out().contains("   1    35  READ+LOCK+VALIDATE"), "ranked table: " + o.out());
        assertTrue(o.out().contains("<- all-rpc") && o.out().contains("<- all-onesided"), o.out());
        assertTrue(o.out().contains("guided search replayed on these results, probes pure: finds the winner after 3 of 64 runs"), o.out());
        // one seed: no winner is claimed without saying so
        assertTrue(o.out().contains("one seed: the ranking does not show how large the noise is")
                && o.out().contains("--vary hybrid=35,"), o.out());
        // the ranking line carries verification; loopback atomics collapse no code here (the fake's fastest pay them)
        assertTrue(o.out().matches("(?s).*\\n   1    35  READ\\+LOCK\\+VALIDATE .* off\\n.*"), o.out());
        assertFalse(o.out().contains("loopback atomics"), o.out());
    }

    @Test
    void withRepeatsAWinnerOnlyWhenItsIntervalIsClear() throws Exception {
        Cli.Outcome o = Cli.run(dir, new FakeRuns(), "enumerate", Cli.exp(dir).toString(), "--repeat", "3", "--out", "e").assertOk();
        assertTrue(o.out().contains("(means over 3 seeds, +- the 95% CI)"), o.out());
        assertFalse(o.out().contains("one seed"), o.out());
        // the fake's seeds move every stage alike: 35 and its neighbours are separated by more than the noise or tied;
        // either way the verdict is one of the two honest lines
        assertTrue(o.out().contains("its 95% CI is clear of every other code's") || o.out().contains("are within noise"), o.out());
    }

    @Test
    void threeShardsMergedEqualOneFullRunByteForByte() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--out", "full").assertOk();
        int total = 0;
        for (int i = 1; i <= 3; i++) {
            FakeRuns runs = new FakeRuns();
            Cli.Outcome o = Cli.run(dir, runs, "enumerate", f.toString(), "--shard", i + "/3", "--jobs", "2", "--out", "s" + i).assertOk();
            for (Config c : runs.configs) assertEquals(i - 1, c.hybrid().code() % 3, "shard " + i + "/3 runs positions = i-1 mod 3");
            total += runs.calls.get();
            assertTrue(o.out().contains("partial:") && o.out().contains("rcc merge"), o.out());
        }
        assertEquals(64, total);
        Cli.Outcome m = Cli.run(dir, "merge", "s1", "s2", "s3", "--out", "merged").assertOk();
        assertEquals(Files.readString(dir.resolve("full/hybrid.csv")), Files.readString(dir.resolve("merged/hybrid.csv")));
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(dir.resolve("full/hybrid.csv")), Files.readAllBytes(dir.resolve("merged/hybrid.csv"))));
        assertTrue(Files.exists(dir.resolve("merged/hybrid=62/summary.json")), "run directories copied");
        assertTrue(m.out().contains("best: code 35"), m.out());

        // merging again into the same directory changes nothing and copies nothing
        Cli.Outcome again = Cli.run(dir, "merge", "s1", "s2", "s3", "--out", "merged").assertOk();
        assertTrue(again.err().contains("(0 copied)"), again.err());
    }

    @Test
    void shardsSharingADirectoryCompleteIt() throws Exception {
        Path f = Cli.exp(dir);
        FakeRuns a = new FakeRuns();
        Cli.run(dir, a, "enumerate", f.toString(), "--shard", "1/2", "--out", "shared").assertOk();
        assertEquals(32, CsvTable.read(dir.resolve("shared/hybrid.csv")).rows().size());
        FakeRuns b = new FakeRuns();
        Cli.run(dir, b, "enumerate", f.toString(), "--shard", "2/2", "--out", "shared").assertOk();
        assertEquals(32, b.calls.get());
        assertEquals(64, CsvTable.read(dir.resolve("shared/hybrid.csv")).rows().size(), "the last shard writes the whole table");
        Cli.Outcome resumed = Cli.run(dir, Cli.UNREACHABLE, "enumerate", f.toString(), "--out", "shared").assertOk();
        assertTrue(resumed.err().contains("64 finished earlier, reused"), resumed.err());
    }

    @Test
    void guidedSearchRunsProbesThenTheBestPredicted() throws Exception {
        FakeRuns runs = new FakeRuns();
        Cli.Outcome o = Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--strategy", "guided", "--budget", "3", "--out", "g").assertOk();
        assertEquals(2 + 3, runs.calls.get(), "all-rpc and all-onesided, then three codes");
        assertEquals(5, CsvTable.read(dir.resolve("g/hybrid.csv")).rows().size());
        CsvTable g = CsvTable.read(dir.resolve("g/guided.csv"));
        assertEquals(64, g.rows().size());
        assertEquals("35", g.get(0, "code"), "the model ranks the true winner first");
        assertEquals("true", g.get(0, "measured"));
        assertTrue(o.out().contains("guided best: code 35 (READ+LOCK+VALIDATE)"), o.out());

        // on a directory that holds every code, guided search reuses the results and compares
        Cli.run(dir, new FakeRuns(), "enumerate", Cli.exp(dir).toString(), "--out", "all").assertOk();
        Cli.Outcome cmp = Cli.run(dir, Cli.UNREACHABLE, "enumerate", Cli.exp(dir).toString(), "--strategy", "guided", "--probes", "flips",
                "--budget", "2", "--out", "all").assertOk();
        assertTrue(cmp.out().contains("measured 16 codes (0 new runs)"), cmp.out());
        assertTrue(cmp.out().contains("the winner is code 35") && cmp.out().contains("guided's best ranks 1 of 64"), cmp.out());
    }

    @Test
    void addingRepeatsReusesTheFirstSeedAndTheTableAgreesWithTheDirectories() throws Exception {
        FakeRuns runs = new FakeRuns();
        Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--out", "d").assertOk();
        assertEquals(64, runs.calls.get());
        Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--repeat", "3", "--out", "d").assertOk();
        assertEquals(64 + 128, runs.calls.get(), "seed 1 is repeat 1: only seeds 2 and 3 run");
        assertTrue(Files.exists(dir.resolve("d/hybrid=07/summary.json")), "seed 1 stays where it was");
        assertFalse(Files.exists(dir.resolve("d/hybrid=07,seed=1")), "and is not run again under another name");
        assertEquals("3", CsvTable.read(dir.resolve("d/hybrid.csv")).get(7, "runs"));
        Cli.run(dir, "plot", "d").assertOk();
        // back to one seed: nothing runs, and the table keeps counting every run in the directory, as plot does
        Cli.Outcome back = Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--out", "d").assertOk();
        assertEquals(64 + 128, runs.calls.get());
        assertFalse(back.out().contains("partial:"), "every code has (more than) its seed: " + back.out());
        assertEquals("3", CsvTable.read(dir.resolve("d/hybrid.csv")).get(7, "runs"));
        Cli.run(dir, "plot", "d").assertOk();

        // a directory left by an older version: seed 1 under both names; one run per seed, and plot agrees
        Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--repeat", "2", "--out", "old").assertOk();
        copyDir(dir.resolve("old/hybrid=07,seed=1"), dir.resolve("old/hybrid=07"));
        Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--repeat", "2", "--out", "old").assertOk();
        assertEquals("2", CsvTable.read(dir.resolve("old/hybrid.csv")).get(7, "runs"));
        Cli.run(dir, "plot", "old").assertOk();

        // sweeps alike
        int before = runs.calls.get();
        Cli.run(dir, runs, "sweep", Cli.exp(dir).toString(), "--vary", "coroutines=1,2", "--out", "s").assertOk();
        Cli.run(dir, runs, "sweep", Cli.exp(dir).toString(), "--vary", "coroutines=1,2", "--repeat", "2", "--out", "s").assertOk();
        assertEquals(before + 4, runs.calls.get(), "2 points, then only their seed 2");
        assertEquals("2", CsvTable.read(dir.resolve("s/sweep.csv")).get(1, "runs"));
        Cli.run(dir, "plot", "s").assertOk();
    }

    private static void copyDir(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (var files = Files.list(from)) {
            for (Path f : files.toList()) Files.copy(f, to.resolve(f.getFileName()));
        }
    }

    @Test
    void repeatGivesOneRowPerCodeWithIntervals() throws Exception {
        FakeRuns runs = new FakeRuns();
        Cli.run(dir, runs, "enumerate", Cli.exp(dir).toString(), "--repeat", "2", "--out", "r").assertOk();
        assertEquals(128, runs.calls.get());
        CsvTable t = CsvTable.read(dir.resolve("r/hybrid.csv"));
        assertEquals(64, t.rows().size());
        assertEquals("2", t.get(7, "runs"));
        assertTrue(t.column("throughput_tps_ci95") > 0);
        assertTrue(Files.exists(dir.resolve("r/hybrid=07,seed=2/summary.json")));
    }

    @Test
    void badInput() throws Exception {
        String c = Cli.exp(dir).toString();
        for (String bad : new String[] {"4/3", "0/3", "x", "1/0", "2"}) {
            Cli.run(dir, "enumerate", c, "--shard", bad, "--out", "b").assertBadInput("--shard " + bad, "expected i/n");
        }
        Cli.run(dir, "enumerate", c, "--strategy", "random", "--out", "b").assertBadInput("--strategy random", "exhaustive, guided");
        Cli.run(dir, "enumerate", c, "--budget", "3", "--out", "b").assertBadInput("--budget applies to --strategy guided");
        Cli.run(dir, "enumerate", c, "--strategy", "guided", "--shard", "1/2", "--out", "b").assertBadInput("--shard splits");
        Cli.run(dir, "enumerate", c, "--strategy", "guided", "--probes", "all", "--out", "b").assertBadInput("--probes all", "pure, flips");
        Cli.run(dir, "enumerate", c, "--strategy", "guided", "--budget", "-1", "--out", "b").assertBadInput("--budget -1");
        Cli.run(dir, "enumerate", c, "--set", "workload.bogus=1", "--out", "b").assertBadInput("workload.bogus: unknown key");
        Cli.run(dir, "enumerate", "--out", "b").assertBadInput("missing CONFIG");
        assertFalse(Files.exists(dir.resolve("b")), "nothing written");
    }
}
