package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.results.Comparison;
import org.rccj.results.RunMetrics;

/** {@code rcc compare}: runs, sweeps and enumerations side by side, and its bad input. */
class CompareCommandTest {
    @TempDir Path dir;

    /** {@code rcc COMMAND exp.yaml ARGS...} with the fake runner (exp.yaml: the fake protocol and workload); must succeed. */
    private void fake(String command, String... args) throws Exception { Cli.fakeOk(dir, command, args); }

    private static double num(String cell) { return Double.parseDouble(cell.replace(",", "").replace("+", "")); }

    private static String row(String out, String start) {
        for (String l : out.split("\n")) if (l.startsWith(start)) return l;
        throw new AssertionError("no line starting '" + start + "' in:\n" + out);
    }

    @Test
    void runsSideBySideWithRelativeDifferences() throws Exception {
        fake("run", "--out", "rpc");
        fake("run", "--set", "hybrid=35", "--out", "best");
        Cli.Outcome o = Cli.run(dir, "compare", "rpc", "best", "--full").assertOk();
        assertTrue(o.out().startsWith("A = rpc (run: fakeproto on fakewl, all-rpc, sim, seed "), o.out());
        RunMetrics a = RunMetrics.read(dir.resolve("rpc")), b = RunMetrics.read(dir.resolve("best"));
        String expected = String.format(Locale.ROOT, "%+.1f%%", 100 * (b.throughputTps() - a.throughputTps()) / a.throughputTps());
        String tput = row(o.out(), "throughput_tps");
        assertTrue(tput.endsWith(expected), tput + " should end with " + expected);
        assertTrue(tput.contains(String.format(Locale.ROOT, "%,.0f", a.throughputTps())), tput);
        // stage latencies: READ is 2.5 us over RPC, 1.0 us one-sided in the fake runner
        String read = row(o.out(), "READ_mean_us");
        assertTrue(read.matches("READ_mean_us +2\\.5\\d +1\\.0\\d +-1\\.5\\d +-5\\d\\.\\d%"), read);
        assertTrue(o.out().contains("READ_p99_us"), "stage p99s too");
    }

    @Test
    void compareRepeatsTheWarningsOfItsInputs() throws Exception {
        fake("run", "--out", "rpc");
        fake("run", "--set", "hybrid=35", "--out", "best");
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        Path summary = dir.resolve("best/summary.json");
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(summary.toFile());
        tree.putArray("warnings").add("busy host: load average 18.02 before the run and 19.50 after, on 2 cores");
        json.writeValue(summary.toFile(), tree);
        Cli.Outcome o = Cli.run(dir, "compare", "rpc", "best").assertOk();
        assertTrue(o.out().contains("warning: B: busy host: load average 18.02 before the run and 19.50 after, on 2 cores"), o.out());
        assertTrue(o.out().lines().noneMatch(l -> l.startsWith("warning: A")), o.out());

        fake("sweep", "--vary", "coroutines=1,2", "--out", "s1");
        fake("sweep", "--vary", "coroutines=1,2", "--set", "hybrid=35", "--out", "s2");
        Path csv = dir.resolve("s2/sweep.csv");
        List<String> lines = new ArrayList<>(java.nio.file.Files.readAllLines(csv));
        lines.set(1, lines.get(1) + "repeats disagree: the 3 seeds' throughput 95% CI is +-31% of the mean (bound 10%)");
        java.nio.file.Files.write(csv, lines);
        Cli.Outcome s = Cli.run(dir, "compare", "s1", "s2").assertOk();
        assertTrue(s.out().contains("warning: B (1 of 2 points): repeats disagree: the 3 seeds' throughput 95% CI is +-31%"), s.out());
    }

    @Test
    void absolutePerTransactionDeltasPerStageAndATotalThatIsTheMeanLatency() throws Exception {
        fake("run", "--out", "rpc");
        fake("run", "--set", "hybrid=35", "--out", "best");
        Cli.Outcome o = Cli.run(dir, "compare", "rpc", "best").assertOk();
        RunMetrics a = RunMetrics.read(dir.resolve("rpc")), b = RunMetrics.read(dir.resolve("best"));
        assertTrue(o.out().lines().anyMatch(l -> l.matches("metric +A +B +B-A +B vs A")), o.out());
        // every stage's time per committed txn, its absolute difference in us, and the rest of the latency: they add up
        double sumA = 0, sumB = 0;
        for (String stage : a.stages().keySet()) {
            RunMetrics.StageFigures fa = a.stages().get(stage), fb = b.stages().get(stage);
            double va = fa.perCommitUs(a.commits()), vb = fb == null ? 0 : fb.perCommitUs(b.commits());
            sumA += va;
            sumB += vb;
            if (va == 0 && vb == 0) continue;
            String[] l = row(o.out(), stage + "_us_per_txn ").trim().split(" {2,}");
            assertEquals(va, num(l[1]), 1e-3, stage + " in A");
            assertEquals(vb, num(l[2]), 1e-3, stage + " in B");
            assertEquals(vb - va, num(l[3]), 1e-3, "absolute delta of " + stage + " (us per txn): " + String.join(" | ", l));
        }
        String[] outside = row(o.out(), "outside_stages_us_per_txn ").trim().split(" {2,}");
        assertEquals(a.latencyMeanUs() - sumA, num(outside[1]), 0.006, "the rest of A's latency: " + String.join(" | ", outside));
        assertEquals(b.latencyMeanUs() - sumB, num(outside[2]), 0.006, "the rest of B's latency");
        String[] total = row(o.out(), "total_us_per_txn ").trim().split(" {2,}");
        assertEquals(String.format(Locale.ROOT, "%,.2f", a.latencyMeanUs()), total[1], "A's total is its mean latency");
        assertEquals(String.format(Locale.ROOT, "%,.2f", b.latencyMeanUs()), total[2], "B's total is its mean latency");
        assertEquals(Comparison.delta("total_us_per_txn", b.latencyMeanUs() - a.latencyMeanUs()), total[3]);
        assertTrue(o.out().contains("add up to total_us_per_txn = latency_mean_us"), o.out());
    }

    @Test
    void sweepsMatchPointsAndShowIntervals() throws Exception {
        fake("sweep", "--vary", "coroutines=1,2", "--repeat", "3", "--out", "a");
        fake("sweep", "--vary", "coroutines=2,4", "--repeat", "3", "--set", "hybrid=35", "--out", "b");
        Cli.Outcome o = Cli.run(dir, "compare", "a", "b").assertOk();
        assertTrue(o.out().contains("with 95% CIs"), o.out());
        // coroutines=2 is in both: values with ± and a starred difference (the fake runs differ by far more than their spread)
        String c1 = row(o.out(), "coroutines=1");
        assertTrue(c1.trim().endsWith("-"), "only in A: " + c1);
        String lat2 = null;
        for (String l : o.out().split("\n")) if (l.startsWith("coroutines=2") && l.contains("latency_mean_us")) lat2 = l;
        assertTrue(lat2 != null && lat2.contains("±") && lat2.trim().endsWith("*"), lat2 + "\n" + o.out());
    }

    @Test
    void enumerationsCompareCodeByCode() throws Exception {
        fake("enumerate", "--out", "e1");
        fake("enumerate", "--set", "coroutines=8", "--out", "e2");
        Cli.Outcome o = Cli.run(dir, "compare", "e1", "e2").assertOk();
        assertTrue(o.out().contains("code=35"), o.out());
        assertTrue(o.out().contains("code=0 "), o.out());
        assertTrue(o.out().lines().anyMatch(l -> l.startsWith("code=63") && l.contains("throughput_tps")), o.out());
        // what differs besides the code comes first: here the coroutines, which explain every difference
        List<String> lines = o.out().lines().toList();
        assertEquals("settings that differ (every difference below may come from these, not only from the point's own key):", lines.get(2), o.out());
        assertEquals("  coroutines: A=4, B=8", lines.get(3), o.out());

        Cli.Outcome few = Cli.run(dir, "compare", "e1", "e2", "--metrics", "throughput_tps,LOCK_us_per_txn", "--csv", "cmp.csv").assertOk();
        assertTrue(few.out().lines().noneMatch(l -> l.contains("latency_mean_us")), few.out());
        assertEquals(64 * 2, few.out().lines().filter(l -> l.startsWith("code=")).count(), "two metrics a code");
        List<String> csv = java.nio.file.Files.readAllLines(dir.resolve("cmp.csv"));
        assertEquals("point,metric,A,B,B-A,B vs A", csv.get(0));
        assertEquals(1 + 64 * 2, csv.size());
        Cli.run(dir, "compare", "e1", "e2", "--metrics", "tput").assertBadInput("compare: --metrics tput: no such metric; known: throughput_tps");
    }

    @Test
    void badInputIsOneLineAndExit2() throws Exception {
        fake("run", "--out", "r");
        fake("sweep", "--vary", "coroutines=1,2", "--out", "s");
        fake("sweep", "--vary", "nodes=3,4", "--out", "n");
        Cli.run(dir, "compare").assertBadInput("compare: needs at least two result directories");
        Cli.run(dir, "compare", "r").assertBadInput("compare: needs at least two result directories");
        Cli.run(dir, "compare", "r", "missing").assertBadInput("compare: missing: no such directory");
        Cli.run(dir, "compare", "r", "exp.yaml").assertBadInput("compare: exp.yaml: not a directory");
        Cli.run(dir, "compare", "r", ".").assertBadInput("is not a result directory");
        Cli.run(dir, "compare", "r", "s").assertBadInput("compare: r is a run but s is a sweep");
        Cli.run(dir, "compare", "s", "n").assertBadInput("compare: s shares no point with the others");
        Cli.run(dir, "compare", "r", "r", "--bogus").assertBadInput("compare: unknown option --bogus");
        fake("run", "--set", "fabric=local", "--out", "loc");
        Cli.Outcome warned = Cli.run(dir, "compare", "r", "loc");
        assertTrue(warned.out().contains("  fabric: A=sim, B=local"), warned.out());
        assertTrue(warned.out().contains("warning: the fabrics differ (A sim, B local)"), warned.out());
    }

    @Test
    void helpDescribesIt() {
        for (List<String> args : List.of(List.of("help", "compare"), List.of("compare", "--help"))) {
            Cli.Outcome o = Cli.run(dir, args.toArray(String[]::new)).assertOk();
            assertTrue(o.out().startsWith("usage: rcc compare DIR DIR [DIR...]"), o.out());
            assertTrue(o.out().contains("95% confidence"), o.out());
        }
        assertTrue(Cli.run(dir, "help").out().contains("compare DIR DIR [DIR...]"));
    }
}
