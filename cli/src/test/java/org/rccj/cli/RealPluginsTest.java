package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real example config with the real OCC and SmallBank: a verified run, history export, bad input. */
class RealPluginsTest {
    @TempDir Path dir;

    private static final String[] SMALL = {"--set", "nodes=3", "--set", "threads=1", "--set", "coroutines=2", "--set", "replication=2",
            "--set", "workload.accounts_per_thread=100", "--set", "warmup_ms=0.1", "--set", "duration_ms=0.5"};

    private static Path example() {
        Path p = Path.of("..", "examples", "smallbank-occ.yaml").toAbsolutePath().normalize();
        assertTrue(Files.exists(p), p.toString());
        return p;
    }

    private String[] args(String... more) {
        String[] a = new String[2 + SMALL.length + more.length];
        a[0] = "run";
        a[1] = example().toString();
        System.arraycopy(SMALL, 0, a, 2, SMALL.length);
        System.arraycopy(more, 0, a, 2 + SMALL.length, more.length);
        return a;
    }

    @Test
    void verifiedRunWritesResultsAndAHistoryTheVerifyCommandAccepts() throws Exception {
        Path history = dir.resolve("h.jsonl");
        Cli.Outcome o = Cli.runReal(dir, args("--set", "history=" + history, "--out", dir.resolve("res").toString()));
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().contains("serializable: yes"), o.out());
        assertTrue(Files.exists(dir.resolve("res/summary.json")));
        assertTrue(Files.exists(dir.resolve("res/stages.csv")));
        assertTrue(Files.exists(dir.resolve("res/timeline.csv")));
        assertTrue(Files.size(history) > 0);
        String first = Files.readAllLines(history).get(0);
        assertTrue(first.startsWith("{\"txn\": ") && first.contains("\"reads\"") && first.contains("\"writes\""), first);
        Cli.Outcome v = Cli.runReal(dir, new String[] {"verify", history.toString()});
        assertEquals(0, v.code(), v.out() + v.err());
    }

    @Test
    void stageOccLacksIsRejected() throws Exception {
        Cli.runReal(dir, args("--set", "hybrid=READ+RENEW")).assertBadInput("RENEW", "occ");
        Cli.runReal(dir, args("--set", "hybrid=64")).assertBadInput("rcc: hybrid:");
    }

    @Test
    void badSmallBankValueIsRejected() throws Exception {
        Cli.runReal(dir, args("--set", "workload.hot_probability=1.5")).assertBadInput("workload.hot_probability", "[0, 1]");
        Cli.runReal(dir, args("--set", "workload.mix=skewed")).assertBadInput("standard", "uniform");
    }
}
