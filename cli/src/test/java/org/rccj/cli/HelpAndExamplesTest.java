package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.framework.run.RunResult;
import org.rccj.experiments.Runner;
import org.rccj.experiments.Exit;

/**
 * Every command has help, and every example in the help texts, README.md's runnable blocks and docs/guide.md runs (exit 0): `rcc run`
 * examples with the real runner on shortened runs, sweeps and enumerations with the stand-in runner (their
 * configs are still resolved and checked by the CLI). Each help text's examples run in order in a fresh
 * directory; README's in order in one directory, as a reader would type them.
 */
class HelpAndExamplesTest {
    static final List<String> COMMANDS = List.of("run", "sweep", "enumerate", "merge", "plot", "list", "verify", "bench", "calibrate", "validate", "robust", "doctor", "help");
    /** Commands whose help examples need what a test cannot give them (result directories of earlier runs, other hosts): their help is still checked. */
    static final List<String> HELP_ONLY = List.of("compare", "node");
    @TempDir Path tmp;

    @Test
    void everyCommandHasHelp() {
        for (String c : java.util.stream.Stream.concat(COMMANDS.stream(), HELP_ONLY.stream()).toList()) {
            Cli.Outcome a = Cli.run(tmp, "help", c), b = Cli.run(tmp, c, "--help");
            assertEquals(Exit.OK, a.code(), c + ": " + a.err());
            assertEquals(Exit.OK, b.code(), c + ": " + b.err());
            assertEquals(a.out(), b.out(), c);
            assertTrue(a.out().startsWith("usage: rcc " + c), c + ":\n" + a.out());
            assertTrue(a.out().contains("./rcc " + c) || c.equals("help") && a.out().contains("./rcc help"), c + " has an example:\n" + a.out());
            assertTrue(Help.general().contains("  " + c), "the general help lists " + c);
        }
    }

    @Test
    void everyHelpExampleRuns() throws Exception {
        List<String> texts = new ArrayList<>();
        texts.add(Help.general());
        for (String c : COMMANDS) texts.add(Help.of(c));
        int ran = 0;
        for (int i = 0; i < texts.size(); i++) {
            Path dir = Files.createDirectories(tmp.resolve("help" + i));
            copyExamples(dir);
            for (String line : texts.get(i).lines().toList()) {
                if (!line.strip().startsWith("./rcc ")) continue;
                for (String cmd : line.strip().split("&&")) {
                    runExample(dir, cmd.strip());
                    ran++;
                }
            }
        }
        assertTrue(ran >= 25, "examples found: " + ran);
    }

    /** README's code blocks marked `<!-- runnable -->` run in order in one directory, as a reader would type them. */
    @Test
    void everyRunnableReadmeBlockRuns() throws Exception {
        Path readme = Path.of("..", "README.md").toAbsolutePath().normalize();
        Path dir = Files.createDirectories(tmp.resolve("readme"));
        copyExamples(dir);
        boolean fence = false, marked = false, runnable = false;
        int ran = 0, blocks = 0, inBlock = 0;
        for (String raw : Files.readAllLines(readme)) {
            if (raw.strip().equals("<!-- runnable -->")) {
                marked = true;
                continue;
            }
            if (raw.startsWith("```")) {
                fence = !fence;
                if (fence) {
                    runnable = marked;
                    inBlock = 0;
                } else if (runnable) {
                    assertTrue(inBlock > 0, "a block marked runnable holds no ./rcc command");
                    blocks++;
                }
                marked = false;
                continue;
            }
            marked = false;
            String line = raw.replaceAll("\\s+#.*$", "").strip();
            if (!fence || !runnable || line.isEmpty()) continue;
            if (line.equals("./rcc test")) continue; // the suite itself, the README's second set-up command
            assertTrue(line.startsWith("./rcc ") && !line.matches("./rcc (test|build|jmh)\\b.*"),
                    "a runnable block holds only rcc commands the test can run in process: " + line);
            runExample(dir, line);
            ran++;
            inBlock++;
        }
        assertTrue(blocks >= 4 && ran >= 7, "README runnable blocks: " + blocks + ", commands: " + ran);
        assertTrue(Files.exists(dir.resolve("out/coro/sweep-throughput.png")));
    }

    /** The guide's examples (docs/guide.md) run too, in order in one directory, except launcher-only commands and synopses. */
    @Test
    void everyGuideExampleRuns() throws Exception {
        Path guide = Path.of("..", "docs", "guide.md").toAbsolutePath().normalize();
        Path dir = Files.createDirectories(tmp.resolve("guide"));
        copyExamples(dir);
        runExample(dir, "./rcc run examples/smallbank-occ.yaml"); // README's demo, which a reader of the guide has run
        boolean fence = false;
        int ran = 0;
        for (String raw : Files.readAllLines(guide)) {
            if (raw.startsWith("```")) {
                fence = !fence;
                continue;
            }
            String line = raw.replaceAll("\\s+#.*$", "").strip();
            if (!fence || !line.startsWith("./rcc ")) continue;
            String cmd = line.substring("./rcc ".length()).strip();
            // launcher-only commands, synopses and lines of the Slurm script (shell variables, continuations) are not examples
            if (cmd.matches("(test|build|jmh)\\b.*") || line.contains("CONFIG") || line.contains("[") || line.contains("$") || line.endsWith("\\")) continue;
            // the tcp and ucx fabrics' examples spawn node processes through the launcher (LocalLauncher), and the ucx
            // bench asks for RDMA transports; their own tests (TcpClusterTest, UcxClusterTest) run them
            if (line.matches(".*(fabric=|--fabric )(tcp|ucx)\\b.*")) continue;
            runExample(dir, line);
            ran++;
        }
        assertTrue(ran >= 10, "guide examples found: " + ran);
    }

    private String command;

    /** `rcc run` examples run for real on 0.3 ms (100 ms on a wall-clock fabric; history files under the example's directory); batches use FakeRuns. */
    private Runner runner(Path dir) {
        FakeRuns fake = new FakeRuns();
        return (c, p) -> {
            if (!command.equals("run")) return fake.run(c, p);
            Map<String, Object> t = c.toMap();
            // a wall-clock fabric needs a window in which something commits: a run that checked nothing is no pass
            boolean wallClock = !"sim".equals(t.getOrDefault("fabric", "sim"));
            t.put("warmup_ms", wallClock ? 10 : 0.1);
            t.put("duration_ms", wallClock ? 100 : 0.3);
            if (c.history() != null) t.put("history", dir.resolve(c.history()).toString());
            RunResult r = ExperimentRunner.run(org.rccj.framework.run.ConfigResolver.resolve(t), p);
            r.config = c;
            return r;
        };
    }

    private void runExample(Path dir, String line) {
        assertTrue(line.startsWith("./rcc "), line);
        String[] args = line.substring("./rcc ".length()).strip().split("\\s+");
        command = args[0];
        Cli.Outcome o = Cli.run(dir, runner(dir), args);
        assertEquals(Exit.OK, o.code(), "example '" + line + "' failed:\n" + o.err());
        assertFalse(o.out().isEmpty(), line);
    }

    private static void copyExamples(Path dir) throws IOException {
        Path src = Path.of("..", "examples").toAbsolutePath().normalize();
        try (Stream<Path> s = Files.walk(src)) {
            for (Path p : s.toList()) {
                Path dst = dir.resolve("examples").resolve(src.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(dst);
                else Files.copy(p, dst);
            }
        }
    }

    @Test
    void listExamplesGivesEveryConfigItsPurpose() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("ex"));
        copyExamples(dir);
        Cli.Outcome o = Cli.run(dir, "list", "examples").assertOk();
        List<Path> configs;
        try (Stream<Path> s = Files.walk(dir.resolve("examples"))) {
            configs = s.filter(p -> p.toString().endsWith(".yaml")).toList();
        }
        assertTrue(configs.size() >= 8, configs.toString());
        for (Path c : configs) {
            String rel = dir.relativize(c).toString();
            String line = o.out().lines().filter(l -> l.strip().startsWith(rel + " ")).findFirst().orElse(null);
            assertNotNull(line, rel + " listed:\n" + o.out());
            String purpose = line.strip().substring(rel.length()).strip();
            assertFalse(purpose.equals("(no description)") || purpose.length() < 20, rel + ": " + purpose);
            assertTrue(purpose.endsWith(".") || purpose.endsWith(")"), "a complete one-line purpose: " + purpose);
            // and each example is a valid config
            // (a profile file an example names is relative to the repository root, where the README runs examples)
            java.util.regex.Matcher profile = java.util.regex.Pattern.compile("(?m)^profile: (examples/\\S+)").matcher(Files.readString(c));
            RunCommand.resolve(c, profile.find()
                    ? new String[] {"profile=" + Path.of("..").toAbsolutePath().normalize().resolve(profile.group(1))}
                    : new String[0]);
        }
    }

    @Test
    void listExamplesFromAnotherDirectoryUsesTheLaunchersHome() throws Exception {
        Path elsewhere = Files.createDirectories(tmp.resolve("elsewhere"));
        Cli.run(elsewhere, "list", "examples").assertBadInput("list examples: no examples directory here");
        Path home = Path.of("..").toAbsolutePath().normalize();
        String old = System.getProperty("rcc.home");
        System.setProperty("rcc.home", home.toString());
        try {
            Cli.Outcome o = Cli.run(elsewhere, "list", "examples").assertOk();
            String path = home.resolve("examples/smallbank-occ.yaml").toString();
            assertTrue(o.out().lines().anyMatch(l -> l.strip().startsWith(path + " ") && l.contains("Demo: OCC on SmallBank")), o.out());
        } finally {
            if (old == null) System.clearProperty("rcc.home");
            else System.setProperty("rcc.home", old);
        }
    }
}
