package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.config.ConfigException;
import org.rccj.results.CsvTable;
import org.rccj.experiments.Provenance;
import org.rccj.experiments.Runner;
import org.rccj.experiments.Exit;

/** Provenance and --force, failed sweep points, tables that must match their points, partial merges, the umask. */
class ResultsNeverMixTest {
    @TempDir Path dir;

    @Test
    void aResultDirectoryRecordsWhatMadeIt() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "sweep", f.toString(), "--vary", "coroutines=1,2", "--set", "seed=5", "--out", "s").assertOk();
        JsonNode p = new ObjectMapper().readTree(dir.resolve("s/provenance.json").toFile());
        assertEquals("sweep", p.get("command").asText());
        assertEquals(List.of("coroutines"), List.of(p.get("varied").get(0).asText()));
        assertEquals(5, p.get("config").get("seed").asInt(), "the resolved base config");
        assertFalse(p.get("config").has("coroutines"), "varied keys are not part of the base");
        assertEquals("--set", p.get("args").get(4).asText());
        Cli.run(dir, new FakeRuns(), "run", f.toString(), "--out", "r").assertOk();
        assertEquals("run", new ObjectMapper().readTree(dir.resolve("r/provenance.json").toFile()).get("command").asText());
    }

    @Test
    void commandsRefuseDirectoriesMadeBySomethingElse() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "sweep", f.toString(), "--vary", "coroutines=1,2", "--out", "s").assertOk();
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--out", "e").assertOk();
        Cli.run(dir, new FakeRuns(), "run", f.toString(), "--out", "r").assertOk();

        Cli.run(dir, "enumerate", f.toString(), "--out", "s").assertBadInput("enumerate: --out", "was made by 'rcc sweep'", "--force");
        Cli.run(dir, "sweep", f.toString(), "--vary", "coroutines=1", "--out", "e").assertBadInput("was made by 'rcc enumerate'");
        Cli.run(dir, "run", f.toString(), "--set", "coroutines=3", "--out", "r")
                .assertBadInput("run: --out", "holds results of another config (coroutines: 3 here, 4 there)", "--force to replace it");
        Cli.run(dir, "enumerate", f.toString(), "--set", "nodes=4", "--out", "e").assertBadInput("nodes: 4 here, 3 there");

        // a sweep's directory without provenance.json (older versions) still refuses an enumeration
        Files.delete(dir.resolve("s/provenance.json"));
        Cli.run(dir, "enumerate", f.toString(), "--out", "s").assertBadInput("is a sweep's directory (sweep.csv)");

        // the same run again replaces its own result; --force replaces another config's
        Cli.run(dir, new FakeRuns(), "run", f.toString(), "--out", "r").assertOk();
        FakeRuns forced = new FakeRuns();
        Cli.run(dir, forced, "run", f.toString(), "--set", "coroutines=3", "--out", "r", "--force").assertOk();
        assertEquals(1, forced.calls.get());
        assertTrue(Files.readString(dir.resolve("r/summary.json")).contains("\"coroutines\": 3"));
    }

    /** A node of a multi-process run that hangs stops that point with the cluster's one line, not as an internal error. */
    @Test
    void aClusterFailureIsAFailedRowWithItsOwnLineAndNoStackTrace() throws Exception {
        Path f = Cli.exp(dir);
        FakeRuns ok = new FakeRuns();
        Runner hung = (c, p) -> {
            if (c.coroutines() == 2) throw new org.rccj.fabrics.cluster.ClusterFailure("ucx run stopped: node 0 failed: node 1 (127.0.0.1:1) sent nothing for 5.0 s: it hung or the network failed");
            return ok.run(c, p);
        };
        Cli.Outcome o = Cli.run(dir, hung, "sweep", f.toString(), "--vary", "coroutines=1,2", "--jobs", "1", "--out", "s");
        assertEquals(Exit.INTERNAL_ERROR, o.code(), o.err());
        String last = o.errLines().get(o.errLines().size() - 1);
        assertEquals("rcc: sweep: 1 of 2 runs failed: coroutines=2 (ucx run stopped: node 0 failed: node 1 (127.0.0.1:1) sent nothing for 5.0 s: "
                + "it hung or the network failed); the others are complete; fix the cause and run the same command again to run the failed ones", last);
        assertFalse(o.err().contains("stack trace in"), o.err());
        assertTrue(CsvTable.read(dir.resolve("s/sweep.csv")).get(1, "failed").startsWith("ucx run stopped: node 0 failed: node 1"));
    }

    @Test
    void aFailedPointIsAFailedRowAndTheSweepGoesOn() throws Exception {
        Path f = Cli.exp(dir);
        FakeRuns ok = new FakeRuns();
        Runner flaky = (c, p) -> {
            if (c.coroutines() == 2) throw new ConfigException("workload.accounts: too few for 2 coroutines");
            if (c.coroutines() == 3) throw new IllegalStateException("a bug");
            return ok.run(c, p);
        };
        Cli.Outcome o = Cli.run(dir, flaky, "sweep", f.toString(), "--vary", "coroutines=1,2,3,4", "--jobs", "1", "--out", "s");
        assertEquals(Exit.INTERNAL_ERROR, o.code(), "an internal error among the failures: " + o.err());
        assertEquals(2, ok.calls.get(), "the other points ran");
        String last = o.errLines().get(o.errLines().size() - 1);
        assertTrue(last.startsWith("rcc: sweep: 2 of 4 runs failed: coroutines=2 (workload.accounts: too few for 2 coroutines); "
                + "coroutines=3 (internal error: java.lang.IllegalStateException: a bug; stack trace in "), last);
        assertFalse(o.err().contains("\tat "), o.err());
        CsvTable t = CsvTable.read(dir.resolve("s/sweep.csv"));
        assertEquals(4, t.rows().size());
        assertEquals("", t.get(0, "failed"));
        assertEquals("workload.accounts: too few for 2 coroutines", t.get(1, "failed"));
        assertEquals("0", t.get(1, "runs"));
        assertEquals("", t.get(1, "throughput_tps"));
        assertTrue(t.get(2, "failed").startsWith("internal error: java.lang.IllegalStateException: a bug"), t.get(2, "failed"));
        assertTrue(o.out().contains("coroutines=2 FAILED: workload.accounts"), o.out());
        Files.deleteIfExists(Path.of(t.get(2, "failed").replaceAll(".*stack trace in ", "")));

        // plot leaves the failed points out; a rerun runs only them and clears the failed column
        Cli.Outcome plot = Cli.run(dir, "plot", "s").assertOk();
        assertTrue(plot.err().contains("left out 2 failed points: coroutines=2, coroutines=3"), plot.err());
        FakeRuns rerun = new FakeRuns();
        Cli.run(dir, rerun, "sweep", f.toString(), "--vary", "coroutines=1,2,3,4", "--out", "s").assertOk();
        assertEquals(2, rerun.calls.get());
        assertEquals(-1, CsvTable.read(dir.resolve("s/sweep.csv")).column("failed"));

        // only bad-input failures: exit 2
        Runner bad = (c, p) -> { throw new ConfigException("nope"); };
        Cli.Outcome b = Cli.run(dir, bad, "sweep", f.toString(), "--vary", "coroutines=5", "--out", "s2");
        assertEquals(Exit.BAD_INPUT, b.code());
        assertTrue(b.err().contains("1 of 1 runs failed: coroutines=5 (nope)"), b.err());
    }

    @Test
    void warningsAreInTheTableAndPrinted() throws Exception {
        Path f = Cli.exp(dir);
        Runner few = (c, p) -> {
            var r = FakeRuns.result(c);
            if (c.coroutines() == 1) r.total.commits = 7;
            return r;
        };
        Cli.Outcome o = Cli.run(dir, few, "sweep", f.toString(), "--vary", "coroutines=1,2", "--out", "s");
        assertEquals(Exit.OK, o.code(), "warnings do not fail a sweep: " + o.err());
        CsvTable t = CsvTable.read(dir.resolve("s/sweep.csv"));
        assertTrue(t.get(0, "warnings").startsWith("only 7 commits"), t.get(0, "warnings"));
        assertEquals("", t.get(1, "warnings"));
        assertTrue(o.out().contains("WARNING: only 7 commits"), o.out());
    }

    @Test
    void plotRefusesATableThatDoesNotMatchItsPoints() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "sweep", f.toString(), "--vary", "coroutines=1,2", "--out", "s").assertOk();
        Cli.run(dir, new FakeRuns(), "sweep", f.toString(), "--vary", "coroutines=1,2,4", "--out", "t").assertOk();
        // a table left from another sweep: s's table beside t's points
        Files.copy(dir.resolve("s/sweep.csv"), dir.resolve("t/sweep.csv"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Files.copy(dir.resolve("t/coroutines=4/summary.json"), dir.resolve("t/coroutines=2/summary.json"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Cli.run(dir, "plot", "t").assertBadInput("plot: ", "sweep.csv does not match the results beside it: point coroutines=2",
                "throughput_tps", "rerun the command");
        Files.delete(dir.resolve("s/coroutines=1/summary.json"));
        Files.delete(dir.resolve("s/coroutines=1/stages.csv"));
        Files.delete(dir.resolve("s/coroutines=1/timeline.csv"));
        Cli.run(dir, "plot", "s").assertBadInput("point coroutines=1: 1 runs in the table, 0 seeds in result directories");
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--out", "e").assertOk();
        Files.copy(dir.resolve("e/hybrid=35/summary.json"), dir.resolve("e/hybrid=00/summary.json"),   // 63 is as fast as 0 in FakeRuns
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Cli.run(dir, "plot", "e").assertBadInput("hybrid.csv does not match", "code 0");
    }

    @Test
    void partialMergesFailUnlessAllowedAndMismatchesNameTheKey() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--shard", "1/2", "--out", "a").assertOk();
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--shard", "2/2", "--out", "b").assertOk();
        Cli.run(dir, "merge", "a", "--out", "m").assertBadInput("merge: partial: 32 of 64 codes have results; missing 1, 3, 5", "--allow-partial");
        assertFalse(Files.exists(dir.resolve("m")), "nothing written");
        Cli.Outcome partial = Cli.run(dir, "merge", "a", "--out", "m", "--allow-partial").assertOk();
        assertTrue(partial.out().contains("partial: 32 of 64 codes"), partial.out());
        Cli.run(dir, "merge", "a", "b", "--out", "m2").assertOk();

        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--shard", "2/2", "--set", "workload.hot_probability=0.5",
                "--out", "c").assertOk();
        Cli.run(dir, "merge", "a", "c", "--out", "m3").assertBadInput("is from another experiment", "workload.hot_probability: ");
    }

    @Test
    void resultFilesFollowTheUmask() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "sweep", f.toString(), "--vary", "coroutines=1", "--out", "s").assertOk();
        // what the umask gives any new file and directory of this process
        Path refDir = Files.createDirectory(dir.resolve("ref-dir"));
        Path refFile = Files.createFile(dir.resolve("ref-file"));
        String dirPerms = PosixFilePermissions.toString(Files.getPosixFilePermissions(refDir));
        String filePerms = PosixFilePermissions.toString(Files.getPosixFilePermissions(refFile));
        assertEquals(dirPerms, PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("s/coroutines=1"))), "run directory");
        assertEquals(filePerms, PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("s/sweep.csv"))), "sweep.csv");
        assertEquals(filePerms, PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("s/provenance.json"))));
    }
}
