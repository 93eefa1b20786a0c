package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue 30 item 7: the enumerate hint keeps --set, code directories answer to hybrid=0 and hybrid=00, plot stays in its argument. */
class SmallTrapsTest {
    @TempDir Path dir;

    @Test
    void enumerateSweepHintKeepsTheSetOptions() throws Exception {
        String exp = Cli.exp(dir).toString();
        Cli.Outcome o = Cli.run(dir, new FakeRuns(), "enumerate", exp, "--set", "coroutines=8", "--set", "name=my run", "--out", "e").assertOk();
        assertTrue(o.out().contains("rcc sweep " + exp + " --set coroutines=8 --set 'name=my run' --vary hybrid=35,"),
                "the hint reruns the same base config: " + o.out());
    }

    @Test
    void codeDirectoriesAnswerToTheCodeAsPrinted() throws Exception {
        Cli.run(dir, new FakeRuns(), "enumerate", Cli.exp(dir).toString(), "--out", "e").assertOk();
        assertTrue(Files.isDirectory(dir.resolve("e/hybrid=00")) && Files.isDirectory(dir.resolve("e/hybrid=05")));
        Cli.Outcome o = Cli.run(dir, "compare", "e/hybrid=0", "e/hybrid=5").assertOk();
        assertTrue(o.out().contains("A = e/hybrid=0 (run: fakeproto"), o.out());
        Cli.run(dir, "compare", "e/hybrid=00", "e/hybrid=05").assertOk();
        Cli.run(dir, "plot", "e/hybrid=5", "--out", "p").assertOk();
        Cli.run(dir, "compare", "e/hybrid=0", "e/hybrid=99").assertBadInput("compare: e/hybrid=99: no such directory");
    }

    @Test
    void plotRefusesADirectoryEveryUserWritesInAndOneWithoutResults() throws Exception {
        Cli.run(dir, new FakeRuns(), "run", Cli.exp(dir).toString(), "--out", "shared/r1").assertOk();
        Files.setPosixFilePermissions(dir.resolve("shared"), PosixFilePermissions.fromString("rwxrwxrwx"));
        Cli.run(dir, "plot", "shared").assertBadInput("plot: shared is a directory every user writes in and holds no results itself");
        Cli.run(dir, "plot", "shared/r1", "--out", "p").assertOk();
        Files.createDirectories(dir.resolve("empty/sub"));
        Cli.run(dir, "plot", "empty").assertBadInput("plot: empty has no results");
    }

    @Test
    void aRunWithoutOutAfterTheDemoWritesBesideItInsteadOfFailing() throws Exception {
        String exp = Cli.exp(dir).toString();
        Cli.run(dir, new FakeRuns(), "run", exp).assertOk();                              // the demo: out/exp
        Cli.Outcome o = Cli.run(dir, new FakeRuns(), "run", exp, "--set", "coroutines=8").assertOk(); // README's next command
        assertTrue(o.err().contains("rcc: note: out/exp holds results of another config; this run writes out/exp-2 (give --out DIR to choose)"),
                o.err());
        assertTrue(o.out().contains("results: out/exp-2"), o.out());
        assertTrue(Files.isRegularFile(dir.resolve("out/exp/summary.json")) && Files.isRegularFile(dir.resolve("out/exp-2/summary.json")));
        // each command run again finds its own directory
        assertTrue(Cli.run(dir, new FakeRuns(), "run", exp, "--set", "coroutines=8").assertOk().out().contains("results: out/exp-2"));
        assertTrue(Cli.run(dir, new FakeRuns(), "run", exp).assertOk().out().contains("results: out/exp\n") || true);
        assertTrue(Cli.run(dir, new FakeRuns(), "run", exp).assertOk().out().lines().anyMatch(l -> l.equals("results: out/exp")));
        // an explicit --out still refuses another config's results
        Cli.run(dir, "run", exp, "--set", "coroutines=3", "--out", "out/exp").assertBadInput("holds results of another config");
    }
}
