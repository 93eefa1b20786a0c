package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.RunResult;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.LiveProgress;

/** Ctrl-C on a sweep says how far it got; a long run shows its progress. */
class InterruptAndProgressTest {
    @TempDir Path dir;

    @Test
    void interruptingASweepSaysHowManyPointsAreDone() throws Exception {
        Path f = Cli.exp(dir);
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), SlowSweepMain.class.getName(),
                "sweep", f.toString(), "--vary", "coroutines=1,2,3,4,5,6,7,8,9,10", "--jobs", "1", "--out", "s").directory(dir.toFile());
        pb.redirectErrorStream(true);
        Process p = pb.start();
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                if (line.startsWith("[2/10]")) p.toHandle().destroy();   // SIGTERM: runs the shutdown hooks, as Ctrl-C (SIGINT) does
            }
        }
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        String last = lines.get(lines.size() - 1);
        assertTrue(last.matches("interrupted: [2-9] of 10 points done; run the same command again to resume"), String.join("\n", lines));
        int done = Integer.parseInt(last.replaceAll("interrupted: ([0-9]+) of.*", "$1"));
        int dirs = 0;
        for (int c = 1; c <= 10; c++) if (Files.exists(dir.resolve("s/coroutines=" + c + "/summary.json"))) dirs++;
        assertEquals(done, dirs, "as many complete result directories as the message says");

        // the same command resumes: only the rest runs
        FakeRuns rest = new FakeRuns();
        Cli.run(dir, rest, "sweep", f.toString(), "--vary", "coroutines=1,2,3,4,5,6,7,8,9,10", "--out", "s").assertOk();
        assertEquals(10 - done, rest.calls.get());
    }

    @Test
    void progressInsideARunShowsTimeAndCommits() throws Exception {
        Path example = Path.of("..", "examples", "smallbank-occ.yaml").toAbsolutePath().normalize();
        Map<String, Object> tree = ConfigLoader.load(example);
        for (String s : new String[] {"nodes=3", "threads=1", "coroutines=2", "replication=2", "workload.accounts_per_thread=100",
                "warmup_ms=0.2", "duration_ms=1", "verify=false"}) ConfigLoader.applySet(tree, s);
        Config c = org.rccj.framework.run.ConfigResolver.resolve(tree);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        PrintStream err = new PrintStream(buf, true, StandardCharsets.UTF_8);
        RunResult r = ExperimentRunner.run(c, null, new LiveProgress(err, 5));
        String text = buf.toString(StandardCharsets.UTF_8);
        String[] shown = text.split("\r");
        String last = shown[shown.length - 1].strip();
        assertEquals(String.format(java.util.Locale.ROOT, "rcc: 1.2 of 1.2 ms virtual time (100%%), %,d commits so far", r.simCommitsTotal), last,
                "the last line is the whole run: " + text);
        assertTrue(text.endsWith("\n"), "the line is closed when the workers stop");
        // warmup_ms: auto: the run's length is only bounded (decision 0210)
        assertEquals("rcc: 1000.0 of at most 33000.0 ms wall-clock time (3%), 5 commits so far",
                LiveProgress.line(new org.rccj.framework.run.RunHooks.Live(33_000_000_000L, true, false, () -> 0, () -> 5), 1_000_000_000L, 5));
    }
}
