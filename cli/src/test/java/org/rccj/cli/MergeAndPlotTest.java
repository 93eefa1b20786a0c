package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code rcc plot} and {@code rcc merge}: charts from each kind of result directory, and bad input. */
class MergeAndPlotTest {
    @TempDir Path dir;

    @Test
    void plotsOfEnumerationsSweepsAndRuns() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--out", "e").assertOk();
        Cli.run(dir, new FakeRuns(), "sweep", f.toString(), "--vary", "coroutines=1,2,4",
                "--vary", "hybrid=all-rpc,all-onesided", "--out", "s").assertOk();

        Cli.Outcome pe = Cli.run(dir, "plot", "e").assertOk();
        Pngs.assertChart(dir.resolve("e/hybrid-scatter.png"));
        Pngs.assertChart(dir.resolve("e/stage-breakdown.png"));
        assertTrue(pe.out().contains("wrote " + Path.of("e", "hybrid-scatter.png")), pe.out());
        Pngs.assertChart(dir.resolve("e/stage-p99.png"));
        Pngs.assertChart(dir.resolve("e/latency-cdf.png")); // from the codes' latency.hlog

        Cli.run(dir, "plot", "s").assertOk();
        Pngs.assertChart(dir.resolve("s/sweep-throughput.png"));
        Pngs.assertChart(dir.resolve("s/sweep-latency.png"));
        Pngs.assertChart(dir.resolve("s/stage-breakdown.png"));
        Pngs.assertChart(dir.resolve("s/sweep-p99.png"));
        Pngs.assertChart(dir.resolve("s/stage-p99.png"));

        // run directories (and a directory of them) into one breakdown; tables get their directory's name
        Cli.run(dir, "plot", "e/hybrid=00", "e/hybrid=63", "s", "--out", "figs").assertOk();
        Pngs.assertChart(dir.resolve("figs/stage-breakdown.png"));
        Pngs.assertChart(dir.resolve("figs/s-sweep-throughput.png"));
        Pngs.assertChart(dir.resolve("figs/latency-cdf.png"));

        // two enumerations: also the protocols comparison (RCC Fig. 14)
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--set", "coroutines=8", "--out", "e8").assertOk();
        Cli.run(dir, "plot", "e", "e8", "--out", "cmp").assertOk();
        Pngs.assertChart(dir.resolve("cmp/protocols.png"));
        Pngs.assertChart(dir.resolve("cmp/e8-hybrid-scatter.png"));
    }

    @Test
    void badInput() throws Exception {
        Files.createDirectories(dir.resolve("empty"));
        Cli.run(dir, "plot", "empty").assertBadInput("plot: empty has no results");
        Cli.run(dir, "plot", "missing").assertBadInput("plot: missing: no such directory");
        Cli.run(dir, "plot").assertBadInput("plot: missing result directories");
        Cli.run(dir, "merge", "empty", "--out", "m").assertBadInput("merge: empty has no results");
        Cli.run(dir, "merge", "missing", "--out", "m").assertBadInput("merge: missing: no such directory");
        Cli.run(dir, "merge", "--out", "m").assertBadInput("merge: missing input directories");

        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--shard", "1/2", "--out", "a").assertOk();
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--shard", "2/2", "--set", "duration_ms=7",
                "--out", "b").assertOk();
        Cli.run(dir, "merge", "a").assertBadInput("merge: missing --out");
        Cli.run(dir, "merge", "a", "b", "--out", "m").assertBadInput("is from another experiment");
        Cli.run(dir, new FakeRuns(), "sweep", f.toString(), "--vary", "coroutines=1", "--out", "sw").assertOk();
        Cli.run(dir, "merge", "sw", "--out", "m").assertBadInput("sw is a sweep directory");
        assertTrue(!Files.exists(dir.resolve("m")), "nothing written");
        Files.writeString(dir.resolve("e.csv"), "");
        Files.createDirectories(dir.resolve("h"));
        Files.writeString(dir.resolve("h/hybrid.csv"), "code,onesided,protocol,workload,runs,throughput_tps\n");
        Cli.run(dir, "plot", "h").assertBadInput("has no rows");
    }

    @Test
    void runsOfDifferentFabricsAreNotDrawnOnOneAxis() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "run", f.toString(), "--out", "a").assertOk();
        Cli.run(dir, new FakeRuns(), "run", f.toString(), "--set", "fabric=local", "--out", "b").assertOk();
        Cli.run(dir, "plot", "a", "b", "--out", "p").assertBadInput("plot: these runs differ in fabric: sim (a), local (b)");
        assertTrue(!Files.exists(dir.resolve("p/stage-breakdown.png")), "nothing drawn");
    }
}
