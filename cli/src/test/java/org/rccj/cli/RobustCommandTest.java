package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.api.Stage;
import org.rccj.primitives.CostProfile;
import org.rccj.results.CsvTable;
import org.rccj.experiments.Runner;
import org.rccj.experiments.Exit;

/** {@code rcc robust}: tipping points on cases built to flip (a stand-in runner with a known threshold, and the simulator). */
class RobustCommandTest {
    @TempDir Path dir;

    /**
     * {@link FakeRuns}' model with the one-sided READ costing x = 1 us x (cx4-edr's READ rate / the profile's): at the
     * base the winner is code 35 (READ+LOCK+VALIDATE one-sided) and every top-5 code binds READ one-sided, so with the
     * READ rate cut far enough all-rpc (code 0, a candidate as a pure code) wins. 35 holds while its latency is at most
     * 1/0.99 of all-rpc's (the 1% floor): L35 = 1 + x + 1.6 + 2.2 + 3 x 2.5 us + e, L0 = 1 + 6 x 2.5 us + e, where e is
     * the seed's and the coroutines' share; so the flip is at the READ rate scaled by 1 + f with 1000 / (1 + f) = x.
     */
    @Test
    void bisectionFindsAKnownThreshold() throws Exception {
        Cli.Outcome o = Cli.run(dir, slowRead(), "robust", Cli.exp(dir).toString(), "--params", "nic.read_mops,cpu.doorbell_ns",
                "--perturb", "90%", "--repeat", "1", "--jobs", "2", "--out", "r").assertOk();
        CsvTable tip = CsvTable.read(dir.resolve("r/tipping.csv"));
        assertEquals(1, tip.rows().size(), "only the READ rate's drop flips the winner: " + o.out());
        assertEquals("nic.read_mops", tip.get(0, "param"));
        assertEquals("down", tip.get(0, "direction"));
        assertEquals("0", tip.get(0, "to_code"));
        double e = 6 * (10 * 1 + 7 * 4); // FakeRuns: per stage, seed 1, 4 coroutines
        double l0 = 1000 + 6 * 2500 + e, l35WithoutRead = 1000 + 1600 + 2200 + 3 * 2500 + e;
        double threshold = 100 * (1000 / (l0 / 0.99 - l35WithoutRead) - 1);
        double flips = Double.parseDouble(tip.get(0, "flips_at_pct")), holds = Double.parseDouble(tip.get(0, "holds_at_pct"));
        assertTrue(flips <= threshold + 0.5 && threshold - 0.5 <= holds, flips + " .. " + holds + " around " + threshold);
        assertTrue(holds - flips <= 100 * 0.05 + 1e-9, "bisection to 5%: " + flips + " .. " + holds);
        assertTrue(o.out().contains("code 35 (READ+LOCK+VALIDATE) stays best (within noise) under 3 of 4 perturbations; it loses to 0 if"
                + " NIC READ rate drops by " + Math.round(-flips) + "% or more"), o.out());
        CsvTable robust = CsvTable.read(dir.resolve("r/robust.csv"));
        assertEquals(5, robust.rows().size(), "base and 2 parameters x 2 directions");
        assertTrue(Files.exists(dir.resolve("r/robust.png")) && Files.exists(dir.resolve("r/robust.svg")));
        assertTrue(Files.exists(dir.resolve("r/provenance.json")));

        // resumable: the same command runs nothing again
        Cli.Outcome again = Cli.run(dir, Cli.UNREACHABLE, "robust", Cli.exp(dir).toString(), "--params", "nic.read_mops,cpu.doorbell_ns",
                "--perturb", "90%", "--repeat", "1", "--jobs", "2", "--out", "r").assertOk();
        assertEquals(o.out(), again.out());
    }

    /** FakeRuns with a one-sided READ costing 1 us x (cx4-edr's READ rate / the run's profile's). */
    static Runner slowRead() {
        return (c, p) -> {
            if (!c.hybrid().oneSided(Stage.READ)) return FakeRuns.result(c);
            double readNs = CostProfile.load(String.valueOf(c.toMap().get("profile"))).nicReadNs;
            return FakeRuns.result(c, Math.round(1000 * readNs / (1e3 / 86.9)));
        };
    }

    /**
     * The simulator on a profile whose one-sided READ is slow (10 M ops/s): cutting the READ rate by 90% (a READ costs
     * 10x) must make a code with READ over RPC win, and bisection must place the flip between two measured changes.
     */
    @Test
    void simulatorFlipsToRpcReadWhenReadCostsTenTimesMore() throws Exception {
        Path profile = Cli.file(dir, "slow-read.properties", "base=cx4-edr\nnic.read_mops=10\n");
        Path cfg = Cli.file(dir, "sb.yaml", "name: sb\nfabric: sim\nprofile: " + profile + "\nnodes: 2\nreplication: 2\nthreads: 2\n"
                + "coroutines: 8\nprotocol: occ\nworkload:\n  name: smallbank\n  accounts_per_thread: 1000\nwarmup_ms: 1\nduration_ms: 1\n"
                + "seed: 1\nverify: false\n");
        Cli.Outcome o = Cli.runReal(dir, new String[] {"robust", cfg.toString(), "--budget", "2", "--params", "nic.read_mops",
                "--perturb", "90%", "--repeat", "2", "--jobs", "2", "--out", "r"}).assertOk();
        CsvTable robust = CsvTable.read(dir.resolve("r/robust.csv"));
        int baseWinner = Integer.parseInt(robust.get(0, "winner"));
        assertTrue((baseWinner & Stage.READ.bit) != 0, "READ at 10 M ops/s is still one-sided at the base: " + o.out());
        int down = robust.get(1, "setting").contains("-90%") ? 1 : 2;
        assertEquals("false", robust.get(down, "base_winner_within_noise"), o.out());
        assertTrue((Integer.parseInt(robust.get(down, "winner")) & Stage.READ.bit) == 0, "READ at 10x cost goes over RPC: " + o.out());
        CsvTable tip = CsvTable.read(dir.resolve("r/tipping.csv"));
        assertEquals("down", tip.get(0, "direction"));
        // the first flip as READ gets dearer moves a stage that posts one-sided READs (READ, or OCC's VALIDATE) to RPC
        int reads = Stage.READ.bit | Stage.VALIDATE.bit, to = Integer.parseInt(tip.get(0, "to_code"));
        assertTrue((to & reads & ~(baseWinner & reads)) == 0 && (to & reads) != (baseWinner & reads), o.out());
        double flips = Double.parseDouble(tip.get(0, "flips_at_pct")), holds = Double.parseDouble(tip.get(0, "holds_at_pct"));
        assertTrue(-90 <= flips && flips < holds && holds <= 0 && holds - flips <= 5 + 1e-9, flips + " .. " + holds);
        // every bisection step that flipped lies at or beyond the tipping point, every one that held before it
        CsvTable codes = CsvTable.read(dir.resolve("r/codes.csv"));
        List<String> settings = new ArrayList<>();
        for (int r = 0; r < codes.rows().size(); r++) if (!settings.contains(codes.get(r, "setting"))) settings.add(codes.get(r, "setting"));
        assertEquals(robust.rows().size(), settings.size(), "codes.csv covers the settings of robust.csv");
        assertFalse(o.out().contains("no change of a parameter"), o.out());
    }

    @Test
    void badInputIsOneLineBeforeAnyRun() throws Exception {
        String exp = Cli.exp(dir).toString();
        Cli.run(dir, "robust", exp, "--profiles", "cx9-xyz").assertBadInput("unknown profile 'cx9-xyz'");
        Cli.run(dir, "robust", exp, "--profiles", "cx4-edr").assertBadInput("the config's own profile");
        Cli.run(dir, "robust", exp, "--params", "wire.latency_ns").assertBadInput("unknown parameter 'wire.latency_ns'", "wire.one_way_ns");
        Cli.run(dir, "robust", exp, "--params", "nic.atomics_coherent").assertBadInput("unknown parameter");
        for (String bad : List.of("0", "0%", "95%", "1.5", "-10%", "lots")) {
            Cli.run(dir, "robust", exp, "--perturb", bad).assertBadInput("--perturb " + bad, "(0, 90%]");
        }
        Cli.run(dir, "robust", Cli.file(dir, "solo.yaml", "protocol: fakesolo\nnodes: 3\nworkload:\n  name: fakewl\n").toString())
                .assertBadInput("one hybrid code");
        Cli.run(dir, "robust", exp, "--set", "fabric=local").assertBadInput("fabric", "sim");
        Cli.run(dir, "robust", exp, "--shard", "1/2", "--base-only").assertBadInput("--base-only and --shard");
        assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    }

    /**
     * The same runs under --shard 1/2 and 2/2 after --base-only (each shard bisecting its own flips), then reported
     * without running anything: the same tables as one command's.
     */
    @Test
    void arrayJobShardsThenReport() throws Exception {
        String exp = Cli.exp(dir).toString();
        String[] common = {"--params", "nic.read_mops,cpu.rpc_dispatch_ns", "--perturb", "90%", "--profiles", "cx6-hdr", "--repeat", "1"};
        Cli.run(dir, slowRead(), concat(new String[] {"robust", exp, "--out", "one"}, common)).assertOk();
        Cli.run(dir, slowRead(), concat(new String[] {"robust", exp, "--out", "arr", "--shard", "1/2"}, common)).assertBadInput("--base-only");
        Cli.run(dir, slowRead(), concat(new String[] {"robust", exp, "--out", "arr", "--base-only"}, common)).assertOk();
        FakeRuns counted = new FakeRuns();
        Runner shards = (c, p) -> {
            counted.calls.incrementAndGet();
            return slowRead().run(c, p);
        };
        for (String s : List.of("1/2", "2/2")) Cli.run(dir, shards, concat(new String[] {"robust", exp, "--out", "arr", "--shard", s}, common)).assertOk();
        assertEquals(5 * 7 + 5 * 7, counted.calls.get(), "5 settings x 7 codes, and 5 bisection steps of the READ rate's drop x 7 codes");
        Cli.Outcome report = Cli.run(dir, Cli.UNREACHABLE, concat(new String[] {"robust", exp, "--out", "arr"}, common)).assertOk();
        assertTrue(report.out().contains("it loses to 0 if NIC READ rate drops by"), report.out());
        for (String f : List.of("robust.csv", "codes.csv", "tipping.csv", "verdict.txt")) {
            assertEquals(Files.readString(dir.resolve("one").resolve(f)), Files.readString(dir.resolve("arr").resolve(f)), f);
        }
    }

    /** A code whose runs fail under one setting: the others are reported, the figure leaves it out, exit 2 names it. */
    @Test
    void failedRunsAreLeftOutAndNamed() throws Exception {
        Runner failing = (c, p) -> {
            if (c.hybrid().code() == 0 && String.valueOf(c.toMap().get("profile")).contains("x1.5")) {
                throw new org.rccj.framework.config.ConfigException("stand-in failure");
            }
            return FakeRuns.result(c);
        };
        Cli.Outcome o = Cli.run(dir, failing, "robust", Cli.exp(dir).toString(), "--params", "cpu.rpc_send_ns", "--perturb", "50%",
                "--repeat", "2", "--out", "f");
        assertEquals(Exit.BAD_INPUT, o.code(), o.err());
        assertTrue(o.err().contains("2 of ") && o.err().contains("stand-in failure"), o.err());
        CsvTable codes = CsvTable.read(dir.resolve("f/codes.csv"));
        int rows = 0;
        for (int r = 0; r < codes.rows().size(); r++) if (codes.get(r, "setting").contains("+50%")) rows++;
        assertEquals(6, rows, "all-rpc left out under +50%, the other 6 top codes ranked");
        assertTrue(Files.exists(dir.resolve("f/robust.png")));
    }

    /**
     * {@code --from DIR} (issue 42 item 6): the base ranking is an existing exhaustive enumeration's. No base run starts,
     * base.csv holds every code the enumeration has, and the report is the one a robust run that searched every code
     * itself gives (same seeds: the same runs); an enumeration made with another config is refused before any run,
     * naming the key that differs.
     */
    @Test
    void fromReusesAnEnumerationAndRefusesAnother() throws Exception {
        String exp = Cli.exp(dir).toString();
        Cli.run(dir, slowRead(), "enumerate", exp, "--jobs", "2", "--out", "e").assertOk();
        int codes = CsvTable.read(dir.resolve("e/hybrid.csv")).rows().size();
        java.util.concurrent.atomic.AtomicInteger baseRuns = new java.util.concurrent.atomic.AtomicInteger();
        Runner counting = (c, p) -> {
            if (!String.valueOf(c.toMap().get("profile")).endsWith(".properties")) baseRuns.incrementAndGet();
            return slowRead().run(c, p);
        };
        String[] common = {"--params", "nic.read_mops", "--perturb", "90%", "--repeat", "1", "--jobs", "2"};
        Cli.Outcome from = Cli.run(dir, counting, concat(new String[] {"robust", exp, "--from", "e", "--out", "r"}, common)).assertOk();
        assertEquals(0, baseRuns.get(), "the enumeration's runs are the base search: none reruns");
        assertFalse(Files.exists(dir.resolve("r/runs/base")), "no base runs in the robust directory");
        assertEquals(codes, CsvTable.read(dir.resolve("r/base.csv")).rows().size(), "every code of the enumeration ranked");
        assertFalse(from.out().contains("saw only"), "an exhaustive enumeration sees every code: " + from.out());

        Cli.run(dir, slowRead(), concat(new String[] {"robust", exp, "--out", "own"}, common)).assertOk();
        assertEquals(Files.readString(dir.resolve("own/verdict.txt")), Files.readString(dir.resolve("r/verdict.txt")));
        assertEquals(Files.readString(dir.resolve("own/robust.csv")), Files.readString(dir.resolve("r/robust.csv")));

        Cli.run(dir, concat(new String[] {"robust", exp, "--from", "e", "--set", "coroutines=2", "--out", "x"}, common))
                .assertBadInput("--from", "coroutines");
        Cli.run(dir, concat(new String[] {"robust", exp, "--from", "nowhere", "--out", "x"}, common)).assertBadInput("--from", "no such directory");
        Cli.run(dir, concat(new String[] {"robust", exp, "--from", "e", "--budget", "2", "--out", "x"}, common)).assertBadInput("--from and --budget");
        assertFalse(Files.exists(dir.resolve("x")), "refused before anything was written");
    }

    /**
     * {@code --budget}: guided search ranks only some codes; the report and verdict.txt say which it did not see, and
     * those are exactly the codes absent from base.csv.
     */
    @Test
    void budgetNamesTheCodesItCouldNotSee() throws Exception {
        Cli.Outcome o = Cli.run(dir, slowRead(), "robust", Cli.exp(dir).toString(), "--budget", "2", "--params", "nic.read_mops",
                "--perturb", "90%", "--repeat", "1", "--jobs", "2", "--out", "b").assertOk();
        String verdict = Files.readString(dir.resolve("b/verdict.txt"));
        assertTrue(o.out().contains("guided search, budget 2 saw only"), o.out());
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("saw only (\\d+) of (\\d+) codes; not ranked: ([0-9, ]+) \\(").matcher(verdict);
        assertTrue(m.find(), verdict);
        java.util.Set<Integer> seen = new java.util.TreeSet<>(), unseen = new java.util.TreeSet<>();
        CsvTable base = CsvTable.read(dir.resolve("b/base.csv"));
        for (int r = 0; r < base.rows().size(); r++) seen.add(Integer.parseInt(base.get(r, "code")));
        for (String c : m.group(3).split(", ")) unseen.add(Integer.parseInt(c.strip()));
        int all = Integer.parseInt(m.group(2));
        assertEquals(seen.size(), Integer.parseInt(m.group(1)));
        assertEquals(all, seen.size() + unseen.size(), "seen and not seen cover every code once");
        for (int c = 0; c < all; c++) assertTrue(seen.contains(c) != unseen.contains(c), "code " + c);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
