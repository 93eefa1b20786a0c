package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.experiments.Runner;
import org.rccj.experiments.Exit;
import org.rccj.experiments.Runs;

/** Runs the CLI in-process and captures what it prints. */
final class Cli {
    /** Exit code, stdout, stderr of one invocation. */
    record Outcome(int code, String out, String err) {
        List<String> errLines() { return err.lines().toList(); }

        /** Success: exit 0 (else the message shows stderr). */
        Outcome assertOk() {
            assertEquals(Exit.OK, code, () -> "exit code; stderr: " + err);
            return this;
        }

        /** Bad input: exit 2, nothing on stdout, exactly one stderr line starting "rcc: " that contains every part. */
        Outcome assertBadInput(String... parts) {
            assertEquals(Exit.BAD_INPUT, code, () -> "exit code; stderr: " + err);
            assertEquals("", out, "stdout");
            assertEquals(1, errLines().size(), () -> "one stderr line, got:\n" + err);
            assertTrue(err.startsWith("rcc: "), err);
            for (String p : parts) assertTrue(err.contains(p), () -> "stderr lacks '" + p + "': " + err);
            return this;
        }
    }

    /** A runner that must not be reached. */
    static final Runner UNREACHABLE = (c, p) -> { throw new AssertionError("the experiment runner must not be called"); };

    private Cli() {}

    static Outcome run(Path cwd, Runner runner, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                runner, cwd);
        return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    static Outcome run(Path cwd, String... args) { return run(cwd, UNREACHABLE, args); }

    /** With the real experiment runner. */
    static Outcome runReal(Path cwd, String[] args) { return run(cwd, org.rccj.framework.run.ExperimentRunner::run, args); }

    /** Writes a config file with the given text. */
    static Path file(Path dir, String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text);
    }

    /** exp.yaml in {@code dir}: the experiment "exp" of the fake protocol and workload ({@link #yaml}). */
    static Path exp(Path dir) throws IOException {
        return file(dir, "exp.yaml", yaml("name: exp"));
    }

    /** {@code rcc COMMAND exp.yaml ARGS...} in {@code dir} with the fake runner ({@link #exp}); must succeed. */
    static void fakeOk(Path dir, String command, String... args) throws IOException {
        List<String> all = new ArrayList<>(List.of(command, exp(dir).toString()));
        all.addAll(List.of(args));
        run(dir, new FakeRuns(), all.toArray(String[]::new)).assertOk();
    }

    /** A valid YAML config for the fake protocol and workload, plus extra lines. */
    static String yaml(String... extraLines) {
        StringBuilder sb = new StringBuilder("protocol: fakeproto\nnodes: 3\nthreads: 2\ncoroutines: 4\nworkload:\n  name: fakewl\n");
        for (String l : extraLines) sb.append(l).append('\n');
        return sb.toString();
    }

    /** A plausible result of running {@code c}: 1000 commits in 10 ms, verification as given. */
    static RunResult result(Config c, RunResult.Verification v) {
        RunResult r = new RunResult();
        r.config = c;
        r.measuredS = 0.01;
        TxnTypeStats t = new TxnTypeStats();
        t.commits = 1000;
        t.aborts = 25;
        for (int i = 0; i < 1000; i++) t.latency.record(8_000 + i);
        r.perType.put("transfer", t);
        r.total.add(t);
        r.abortReasons.put("lock_conflict", 25L);
        Histogram read = new Histogram();
        for (int i = 0; i < 1000; i++) read.record(3_000);
        r.stages.put(Stage.READ, read);
        r.network.read = 2000;
        r.network.rpc = 1000;
        r.busyShare = new double[] {0.5, 0.5, 0.5};
        r.timeline = new long[] {500, 500};
        r.timelineIntervalMs = 5;
        r.verification = v;
        return r;
    }

    static RunResult.Verification passed() {
        return new RunResult.Verification(true, true, 1000, List.of(), Map.of("total_money", true));
    }
}
