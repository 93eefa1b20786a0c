package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.experiments.Exit;

class ListAndHelpTest {
    @TempDir Path dir;

    private static void has(String text, String... parts) {
        for (String p : parts) assertTrue(text.contains(p), "missing '" + p + "' in:\n" + text);
    }

    @Test
    void listShowsProtocolsWorkloadsFabricsProfiles() {
        Cli.Outcome o = Cli.run(dir, "list").assertOk();
        assertEquals("", o.err());
        has(o.out(), "protocols:", "fakeproto", "test-only protocol with six stages",
                "READ=2 LOCK=1 VALIDATE=32 LOG=4 COMMIT=16 RELEASE=8", "all-onesided = 63", "lease_us", "an integer in [1, 1000]",
                "workloads:", "fakewl", "hot_probability", "double", "a number in [0, 1]", "default 0.9",
                "mix", "one of default, write-heavy", "skew", "or null (off)",
                "fabrics:", "sim", "local", "tcp", "faults.torn_reads", "profile",
                "profiles", "cx4-edr", "(default)");
        // a fabric that does not exist is not listed (the README never had an rdma fabric; real RNICs are ucx's)
        org.junit.jupiter.api.Assertions.assertFalse(o.out().contains("planned") || o.out().contains("rdma "), o.out());
    }

    @Test
    void generalHelp() {
        for (String[] args : new String[][] {{"--help"}, {"-h"}, {"help"}}) {
            Cli.Outcome o = Cli.run(dir, args).assertOk();
            has(o.out(), "usage: rcc COMMAND", "run CONFIG [--set key=value]... [--out DIR]", "list", "verify HISTORY.jsonl",
                    "sweep CONFIG --vary", "enumerate CONFIG", "merge DIR", "plot DIR", "node CONFIG... --id I --hosts",
                    "./rcc run examples/smallbank-occ.yaml --set hybrid=READ+COMMIT --set nodes=2", "exit codes");
        }
    }

    @Test
    void commandHelp() {
        Cli.Outcome a = Cli.run(dir, "help", "run");
        Cli.Outcome b = Cli.run(dir, "run", "--help");
        Cli.Outcome c = Cli.run(dir, "run", "x.yaml", "-h");
        assertEquals(Exit.OK, a.code());
        assertEquals(a.out(), b.out());
        assertEquals(a.out(), c.out());
        has(a.out(), "usage: rcc run CONFIG", "--set key=value", "--out DIR", "workload.hot_probability=0.5",
                "nodes", "hybrid", "replication", "duration_ms", "faults", "torn_reads", "examples:");
        has(Cli.run(dir, "verify", "--help").out(), "usage: rcc verify HISTORY.jsonl", "serializab");
        has(Cli.run(dir, "help", "list").out(), "usage: rcc list");
        Cli.Outcome s = Cli.run(dir, "sweep", "--help").assertOk();
        has(s.out(), "usage: rcc sweep CONFIG --vary", "--repeat N", "--jobs J", "_ci95", "Student t");
        assertTrue(!s.out().contains("not yet available"), s.out());
        has(Cli.run(dir, "help", "enumerate").out(), "usage: rcc enumerate CONFIG", "--strategy", "guided", "--budget K", "--shard i/n",
                "hybrid.csv", "rcc merge");
        has(Cli.run(dir, "merge", "--help").out(), "usage: rcc merge DIR... --out DIR", "byte for byte");
        has(Cli.run(dir, "plot", "-h").out(), "usage: rcc plot DIR...", "PNG and SVG", "hybrid-scatter", "stage-breakdown", "sweep-throughput");
        Cli.Outcome n = Cli.run(dir, "node", "--help").assertOk();
        has(n.out(), "usage: rcc node CONFIG", "--id I", "--hosts", "--secret-file FILE", "SLURM_PROCID", "exit codes");
    }

    @Test
    void version() {
        Cli.Outcome o = Cli.run(dir, "--version").assertOk();
        assertTrue(o.out().startsWith("rcc 0.1.0"), o.out());
    }
}
