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

/** {@code rcc sweep} with a deterministic stand-in runner. */
class SweepCommandTest {
    @TempDir Path dir;

    @Test
    void oneRowPerPointOfTheProduct() throws Exception {
        FakeRuns runs = new FakeRuns();
        Cli.Outcome o = Cli.run(dir, runs, "sweep", Cli.exp(dir).toString(), "--vary", "coroutines=1,2,4",
                "--vary", "workload.hot_probability=0.1,0.9", "--jobs", "2", "--out", "sw").assertOk();
        assertEquals(6, runs.calls.get());
        CsvTable t = CsvTable.read(dir.resolve("sw/sweep.csv"));
        assertEquals(3 * 2, t.rows().size(), "rows == product of value counts");
        assertEquals(List.of("point", "coroutines", "workload.hot_probability", "protocol", "hybrid"), t.keyColumns());
        assertEquals(List.of("runs", "throughput_tps", "latency_mean_us", "latency_p50_us", "latency_p90_us", "latency_p95_us", "latency_p99_us", "abort_rate",
                "READ_mean_us", "LOCK_mean_us", "VALIDATE_mean_us", "LOG_mean_us", "COMMIT_mean_us", "RELEASE_mean_us",
                "READ_us_per_txn", "LOCK_us_per_txn", "VALIDATE_us_per_txn", "LOG_us_per_txn", "COMMIT_us_per_txn", "RELEASE_us_per_txn",
                "READ_p99_us", "LOCK_p99_us", "VALIDATE_p99_us", "LOG_p99_us", "COMMIT_p99_us", "RELEASE_p99_us", "warnings"),
                t.header().subList(5, t.header().size()));
        assertEquals("coroutines=1,workload.hot_probability=0.1", t.get(0, "point"), "first --vary outermost");
        assertEquals("coroutines=1,workload.hot_probability=0.9", t.get(1, "point"));
        assertEquals("4", t.get(5, "coroutines"));
        assertEquals("fakeproto", t.get(0, "protocol"));
        assertEquals("all-rpc", t.get(0, "hybrid"));
        assertTrue(t.number(5, "throughput_tps") > t.number(0, "throughput_tps"), "4 coroutines do more than 1 (Little's law)");
        for (int r = 0; r < 6; r++) assertTrue(Files.exists(dir.resolve("sw").resolve(t.get(r, "point")).resolve("summary.json")));
        TreeSet<String> seen = new TreeSet<>();
        for (Config c : runs.configs) seen.add(c.coroutines() + "/" + c.workload().get("hot_probability"));
        assertEquals(new TreeSet<>(List.of("1/0.1", "1/0.9", "2/0.1", "2/0.9", "4/0.1", "4/0.9")), seen, "every point ran with its values");
        assertTrue(o.err().contains("[6/6]") && o.err().contains("ETA"), "progress lines: " + o.err());
        assertTrue(o.out().contains("coroutines=4,workload.hot_probability=0.9"), o.out());
        assertTrue(o.out().contains("results: " + Path.of("sw", "sweep.csv")), o.out());
    }

    @Test
    void repeatAggregatesSeedsWithConfidenceIntervals() throws Exception {
        FakeRuns runs = new FakeRuns();
        Cli.Outcome o = Cli.run(dir, runs, "sweep", Cli.exp(dir).toString(), "--vary", "coroutines=1,2", "--repeat", "3", "--set", "seed=10",
                "--out", "rep").assertOk();
        assertEquals(6, runs.calls.get());
        CsvTable t = CsvTable.read(dir.resolve("rep/sweep.csv"));
        assertEquals(2, t.rows().size(), "one row per point, seeds aggregated");
        assertEquals("3", t.get(0, "runs"));
        assertTrue(t.column("throughput_tps_ci95") == t.column("throughput_tps") + 1, t.header().toString());
        assertTrue(t.number(0, "latency_mean_us_ci95") > 0, "seeds differ, so the interval has a width");
        // seeds 10, 11, 12 add 100, 110, 120 ns per stage to a 1 us + 6 x 2.5 us (+ 7 ns per coroutine) transaction
        assertEquals(16.0 + 6 * 0.007 + 6 * 0.110 + 0.0045, t.number(0, "latency_mean_us"), 1e-9);
        TreeSet<Long> seeds = new TreeSet<>();
        for (Config c : runs.configs) seeds.add(c.seed());
        assertEquals(new TreeSet<>(List.of(10L, 11L, 12L)), seeds);
        for (String d : List.of("coroutines=1,seed=10", "coroutines=1,seed=12", "coroutines=2,seed=11")) {
            assertTrue(Files.exists(dir.resolve("rep").resolve(d).resolve("summary.json")), d);
        }
        assertTrue(o.out().contains("±"), "console shows the interval: " + o.out());
    }

    @Test
    void finishedPointsAreReusedAndChangedOnesRerun() throws Exception {
        Path f = Cli.exp(dir);
        FakeRuns first = new FakeRuns();
        Cli.run(dir, first, "sweep", f.toString(), "--vary", "coroutines=1,2,3", "--out", "r").assertOk();
        assertEquals(3, first.calls.get());
        byte[] csv = Files.readAllBytes(dir.resolve("r/sweep.csv"));

        Cli.Outcome again = Cli.run(dir, Cli.UNREACHABLE, "sweep", f.toString(), "--vary", "coroutines=1,2,3", "--out", "r").assertOk();
        assertTrue(again.err().contains("3 finished earlier, reused"), again.err());
        assertEquals(new String(csv), Files.readString(dir.resolve("r/sweep.csv")), "same table from the reused results");

        FakeRuns grown = new FakeRuns();
        Cli.run(dir, grown, "sweep", f.toString(), "--vary", "coroutines=1,2,3,4", "--out", "r").assertOk();
        assertEquals(1, grown.calls.get(), "only the new point runs");

        // another base config into the same directory would mix results: refused, naming the key, unless --force
        Cli.run(dir, Cli.UNREACHABLE, "sweep", f.toString(), "--vary", "coroutines=1,2,3,4", "--set", "duration_ms=3", "--out", "r")
                .assertBadInput("sweep: --out", "holds results of another config (duration_ms: 3.0 here, 20.0 there)", "--force");
        Cli.run(dir, Cli.UNREACHABLE, "sweep", f.toString(), "--vary", "threads=1,2", "--out", "r")
                .assertBadInput("varies coroutines, this sweep varies threads");
        FakeRuns changed = new FakeRuns();
        Cli.run(dir, changed, "sweep", f.toString(), "--vary", "coroutines=1,2,3,4", "--set", "duration_ms=3",
                "--out", "r", "--force").assertOk();
        assertEquals(4, changed.calls.get(), "a different config is not a finished result");
    }

    @Test
    void jobsRunInParallelButLocalRunsOneAtATime() throws Exception {
        Path f = Cli.exp(dir);
        FakeRuns sim = new FakeRuns(150);
        Cli.run(dir, sim, "sweep", f.toString(), "--vary", "coroutines=1,2,3,4", "--jobs", "4", "--out", "p").assertOk();
        assertTrue(sim.maxRunning.get() > 1, "sim runs overlap with --jobs 4: " + sim.maxRunning.get());

        FakeRuns local = new FakeRuns(50);
        Cli.Outcome o = Cli.run(dir, local, "sweep", f.toString(), "--vary", "coroutines=1,2,3", "--jobs", "4", "--set", "fabric=local", "--out", "l").assertOk();
        assertEquals(1, local.maxRunning.get(), "local-fabric runs measure wall-clock time: one at a time");
        assertTrue(o.err().contains("local fabric: one run at a time"), o.err());
    }

    @Test
    void badInputIsRejectedBeforeAnythingRuns() throws Exception {
        Path f = Cli.exp(dir);
        String c = f.toString();
        Cli.run(dir, "sweep", c, "--vary", "workload.hot_prob=0.1,0.2", "--out", "b")
                .assertBadInput("sweep: point workload.hot_prob=0.1", "workload.hot_prob: unknown key", "hot_probability");
        Cli.run(dir, "sweep", c, "--vary", "nodez=1,2", "--out", "b").assertBadInput("nodez: unknown key");
        // only the last point is bad: still nothing runs
        Cli.run(dir, "sweep", c, "--vary", "hybrid=all-rpc", "--vary", "coroutines=1,2,0", "--out", "b")
                .assertBadInput("point hybrid=all-rpc,coroutines=0", "coroutines");
        Cli.run(dir, "sweep", c, "--vary", "hybrid=READ,RENEW", "--out", "b").assertBadInput("point hybrid=RENEW", "RENEW");
        Cli.run(dir, "sweep", c, "--out", "b").assertBadInput("missing --vary");
        Cli.run(dir, "sweep", c, "--vary", "coroutines", "--out", "b").assertBadInput("--vary coroutines: expected key=v1,v2");
        Cli.run(dir, "sweep", c, "--vary", "=1,2", "--out", "b").assertBadInput("expected key=v1,v2");
        Cli.run(dir, "sweep", c, "--vary", "coroutines=1,,2", "--out", "b").assertBadInput("empty value");
        Cli.run(dir, "sweep", c, "--vary", "coroutines=1,1", "--out", "b").assertBadInput("value 1 is listed twice");
        Cli.run(dir, "sweep", c, "--vary", "coroutines=1", "--vary", "coroutines=2", "--out", "b").assertBadInput("given twice");
        Cli.run(dir, "sweep", c, "--vary", "seed=1,2", "--repeat", "2", "--out", "b").assertBadInput("--vary seed and --repeat");
        Cli.run(dir, "sweep", c, "--vary", "coroutines=1", "--repeat", "0", "--out", "b").assertBadInput("--repeat 0", "[1, 1000]");
        Cli.run(dir, "sweep", c, "--vary", "coroutines=1", "--jobs", "two", "--out", "b").assertBadInput("--jobs two");
        Cli.run(dir, "sweep", c, "--vary", "coroutines=1", "--set", "history=h.jsonl", "--out", "b").assertBadInput("history");
        Cli.run(dir, "sweep", "--vary", "coroutines=1").assertBadInput("missing CONFIG");
        Cli.run(dir, "sweep", "nope.yaml", "--vary", "coroutines=1").assertBadInput("no such config file");
        Cli.run(dir, "sweep", c, "--vary", "name=a/b,a_b", "--out", "b").assertBadInput("share the directory name");
        assertFalse(Files.exists(dir.resolve("b")), "nothing written");

        Path src = Files.createDirectories(dir.resolve("src"));
        Files.writeString(src.resolve("keep.txt"), "precious");
        Cli.run(dir, "sweep", c, "--vary", "coroutines=1", "--out", "src").assertBadInput("--out", "refusing to write into it");
    }
}
