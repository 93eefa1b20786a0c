package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.experiments.Runner;
import org.rccj.framework.config.ConfigException;
import org.rccj.results.RunMetrics;

/**
 * Issue 42: a result directory never mixes configs (bound from its first point on, refused by plot and compare when
 * its points differ), compare lists every setting that differs and says where a difference comes from.
 */
class TrustedResultsTest {
    @TempDir Path dir;

    /** {@code rcc COMMAND exp.yaml ARGS...} with the fake runner; must succeed. */
    private void fake(String command, String... args) throws Exception { Cli.fakeOk(dir, command, args); }

    @Test
    void anInterruptedDirectoryIsBoundToItsConfigFromTheFirstPoint() throws Exception {
        Path f = Cli.exp(dir);
        for (String command : List.of("enumerate", "sweep")) {
            String out = command + "-out";
            AtomicBoolean boundBeforeTheFirstPoint = new AtomicBoolean();
            FakeRuns ok = new FakeRuns();
            // an interrupted command: only the first two points finish (the others fail as if the process had stopped)
            Runner interrupted = (c, p) -> {
                if (ok.calls.get() == 0) boundBeforeTheFirstPoint.set(Files.isRegularFile(dir.resolve(out).resolve("provenance.json")));
                if (ok.calls.get() >= 2) throw new ConfigException("stopped");
                return ok.run(c, p);
            };
            List<String> args = new ArrayList<>(List.of(command, f.toString(), "--jobs", "1", "--out", out));
            if (command.equals("sweep")) args.addAll(List.of("--vary", "coroutines=1,2,3,4"));
            Cli.run(dir, interrupted, args.toArray(String[]::new));
            assertTrue(boundBeforeTheFirstPoint.get(), command + ": provenance.json is written before the first point runs");

            // resuming with another config is refused before any run, naming every key that differs
            List<String> other = new ArrayList<>(args);
            other.addAll(List.of("--set", "duration_ms=10", "--set", "nodes=4"));
            Cli.run(dir, other.toArray(String[]::new)).assertBadInput(command + ": --out", "holds results of another config",
                    "2 keys differ", "duration_ms: 10", "nodes: 4 here, 3 there");
            // the same config resumes: only the missing points run
            FakeRuns resumed = new FakeRuns();
            Cli.run(dir, resumed, args.toArray(String[]::new)).assertOk();
            assertTrue(resumed.calls.get() > 0 && resumed.calls.get() < ok.calls.get() + resumed.calls.get(), "resumed, not rerun");
        }
    }

    @Test
    void plotAndCompareRefuseADirectoryWhosePointsDifferInConfig() throws Exception {
        fake("sweep", "--vary", "coroutines=1,2", "--out", "s");
        fake("sweep", "--vary", "coroutines=1,2", "--set", "nodes=4", "--out", "t");
        Cli.run(dir, "compare", "s", "t").assertOk(); // two clean sweeps: fine
        // a point of another config in s (as an older version's resume with another config left it)
        for (String file : List.of("summary.json", "stages.csv")) {
            Files.copy(dir.resolve("t/coroutines=2/" + file), dir.resolve("s/coroutines=2/" + file), StandardCopyOption.REPLACE_EXISTING);
        }
        Cli.run(dir, "plot", "s").assertBadInput("plot: s: its points differ in config beyond what it varies (coroutines)",
                "nodes: 4 in coroutines=2, 3 in coroutines=1", "new --out");
        Cli.run(dir, "compare", "t", "s").assertBadInput("compare: s: its points differ in config", "nodes: 4 in coroutines=2");
    }

    @Test
    void compareListsEverySettingThatDiffersKeyColumnsIncluded() throws Exception {
        fake("enumerate", "--out", "e1");
        fake("enumerate", "--set", "protocol=occ", "--out", "e2");
        Cli.Outcome o = Cli.run(dir, "compare", "e1", "e2").assertOk();
        assertTrue(o.out().contains("\n  protocol: A=fakeproto, B=occ\n"), o.out());
        assertFalse(o.out().contains("  hybrid: "), "what each enumeration varies is left out: " + o.out());

        fake("enumerate", "--set", "coroutines=8", "--out", "e3");
        Cli.Outcome short_ = Cli.run(dir, "compare", "e1", "e3").assertOk();
        Cli.Outcome full = Cli.run(dir, "compare", "e1", "e3", "--full").assertOk();
        long shortRows = short_.out().lines().filter(l -> l.startsWith("code=")).count();
        long fullRows = full.out().lines().filter(l -> l.startsWith("code=")).count();
        assertEquals(64 * 4, shortRows, "short: the four headline metrics a code");
        assertTrue(fullRows > 3 * shortRows, fullRows + " rows in the full table");
        assertTrue(short_.out().contains("--full shows every metric"), short_.out());
        assertTrue(short_.out().lines().noneMatch(l -> l.contains("READ_p99_us")), short_.out());
    }

    @Test
    void compareSaysWhereTheDifferenceComesFrom() throws Exception {
        fake("run", "--out", "rpc");
        fake("run", "--set", "hybrid=35", "--out", "best");
        Cli.Outcome o = Cli.run(dir, "compare", "rpc", "best").assertOk();
        RunMetrics a = RunMetrics.read(dir.resolve("rpc")), b = RunMetrics.read(dir.resolve("best"));
        List<String> lines = o.out().lines().toList();
        int at = -1;
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith("where the difference comes from (B vs A)")) at = i;
        assertTrue(at > 0, o.out());
        assertTrue(lines.get(at).contains("calls per transaction x its time per call"), lines.get(at));
        // ranked by the size of the difference; each stage's term is calls x time per call
        double last = Double.MAX_VALUE, sum = 0;
        int stageRows = 0;
        for (int i = at + 2; i < lines.size() && !lines.get(i).startsWith("sum"); i++) {
            String[] cells = lines.get(i).trim().split(" {2,}");
            double d = Double.parseDouble(cells[3].replace(",", "").replace("+", ""));
            assertTrue(Math.abs(d) <= last + 1e-9, "ranked by size: " + lines.get(i));
            last = Math.abs(d);
            sum += d;
            if (cells[1].contains(" x ")) {
                stageRows++;
                String[] p = cells[1].split(" x | = ");
                assertEquals(Double.parseDouble(p[0]) * Double.parseDouble(p[1]), Double.parseDouble(p[2]), 0.02 + 0.01 * Double.parseDouble(p[2]), cells[1]);
            }
        }
        assertEquals(6, stageRows, "fakeproto's six stages: " + o.out());
        assertEquals(b.latencyMeanUs() - a.latencyMeanUs(), sum, 0.05, "the terms add up to the latency difference:\n" + o.out());
        // READ, LOCK and VALIDATE go one-sided in code 35: READ gains most (1.0 vs 2.5 us a call)
        String first = lines.stream().skip(at + 2).filter(l -> l.contains(" x ")).findFirst().orElseThrow();
        assertTrue(first.startsWith("READ "), first);
        assertTrue(first.contains("per call -59%"), first);
    }

    @Test
    void misspelledValuesCommandsAndOptionsGetASuggestion() throws Exception {
        Path f = Cli.file(dir, "real.yaml", "protocol: occ\nworkload:\n  name: smallbank\n");
        Cli.run(dir, "run", f.toString(), "--set", "hybrid=all-onesidd").assertBadInput("unknown stage 'all-onesidd' (did you mean 'all-onesided'?)");
        Cli.run(dir, "run", f.toString(), "--set", "profile=cx5-edr").assertBadInput("unknown profile 'cx5-edr'", "(did you mean 'cx4-edr'?)");
        Cli.run(dir, "rnu", f.toString()).assertBadInput("unknown command 'rnu' (did you mean 'run'?)");
        Cli.run(dir, "run", f.toString(), "--sett", "coroutines=2").assertBadInput("run: unknown option --sett (did you mean '--set'?)");
        Cli.run(dir, "validate", f.toString(), "--fabric", "tcp", "--profile", "cx5-edr")
                .assertBadInput("validate: --profile: unknown profile 'cx5-edr'", "(did you mean 'cx4-edr'?)");
    }

    @Test
    void aMissingProfileFileIsNotAnUnknownProfile() throws Exception {
        Path f = Cli.file(dir, "real.yaml", "protocol: occ\nworkload:\n  name: smallbank\n");
        Cli.Outcome o = Cli.run(dir, "run", f.toString(), "--set", "profile=" + dir.resolve("tcp.properties"));
        o.assertBadInput("profile file '" + dir.resolve("tcp.properties") + "' not found (no such file)");
        assertFalse(o.err().contains("unknown profile"), o.err());
        Cli.run(dir, "validate", f.toString(), "--fabric", "tcp", "--profile", "tcp.properties")
                .assertBadInput("validate: --profile: profile file", "tcp.properties' not found");
    }

    @Test
    void helpCompareDocumentsEveryOption() {
        String help = Cli.run(dir, "help", "compare").out();
        for (String option : List.of("--full", "--metrics M,M...", "--csv FILE", "where the difference comes from")) {
            assertTrue(help.contains(option), option + " in:\n" + help);
        }
    }

    @Test
    void aProfileFileIsRecordedByItsHashAndCopiedIntoTheResult() throws Exception {
        Path profile = Cli.file(dir, "mine.properties", "base=cx4-edr\nwire.one_way_ns=900\n");
        fake("run", "--set", "profile=" + profile, "--out", "r");
        com.fasterxml.jackson.databind.JsonNode pf = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(dir.resolve("r/summary.json").toFile()).path("environment").path("profile_file");
        assertEquals(org.rccj.results.Environment.sha256(profile), pf.path("sha256").asText());
        assertEquals(64, pf.path("sha256").asText().length());
        assertEquals("profile.properties", pf.path("copy").asText());
        assertEquals(Files.readString(profile), Files.readString(dir.resolve("r/profile.properties")), "a byte copy beside summary.json");
        // a built-in profile is named by the config alone
        fake("run", "--out", "b");
        assertFalse(Files.exists(dir.resolve("b/profile.properties")));
        assertFalse(Files.readString(dir.resolve("b/summary.json")).contains("profile_file"));
    }

    @Test
    void sweepFiguresAreTitledFromTheConfigAndSayTheyRestOnOneSeed() throws Exception {
        fake("sweep", "--vary", "coroutines=1,2", "--set", "seed=7", "--out", "my-dir-name");
        Cli.run(dir, "plot", "my-dir-name").assertOk();
        String title = org.rccj.testkit.SvgFigure.read(dir.resolve("my-dir-name/sweep-throughput.svg")).title();
        assertTrue(title.contains("fakeproto all-rpc on fakewl (3 nodes x 2 threads, sim, one seed per point: seed 7, no CI)"), title);
        assertFalse(title.contains("my-dir-name"), title);
        fake("sweep", "--vary", "coroutines=1,2", "--repeat", "2", "--out", "two");
        Cli.run(dir, "plot", "two").assertOk();
        String two = org.rccj.testkit.SvgFigure.read(dir.resolve("two/sweep-throughput.svg")).title();
        assertFalse(two.contains("one seed"), two);
        assertTrue(two.contains("95% CI"), two);
    }
}
