package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.experiments.config.ConfigLoader;
import org.rccj.experiments.Exit;

/**
 * Every output path is checked before any work (the runner is never reached), a run too large for memory is
 * refused with its estimate, a fault a fabric cannot honour is bad input: exit 2 and one line each.
 */
class RefuseBeforeRunTest {
    @TempDir Path dir;

    @Test
    void historyFileInAMissingDirectory() throws Exception {
        Cli.run(dir, "run", Cli.exp(dir).toString(), "--set", "history=nodir/h.jsonl")
                .assertBadInput("rcc: history ", "nodir/h.jsonl: cannot write:", "nodir: No such file or directory");
        assertFalse(Files.exists(dir.resolve("out")), "nothing written");
    }

    @Test
    void outputBelowAFile() throws Exception {
        Files.writeString(dir.resolve("afile"), "x");
        Cli.run(dir, "run", Cli.exp(dir).toString(), "--out", "afile/x").assertBadInput("--out", "afile/x: cannot write:", "Not a directory");
        Cli.run(dir, "run", Cli.exp(dir).toString(), "--out", "afile").assertBadInput("afile exists and is not a directory");
        Cli.run(dir, "sweep", Cli.exp(dir).toString(), "--vary", "coroutines=1,2", "--out", "afile/s").assertBadInput("Not a directory");
        Cli.run(dir, "enumerate", Cli.exp(dir).toString(), "--out", "afile/e").assertBadInput("Not a directory");
        Cli.run(dir, "run", Cli.exp(dir).toString(), "--set", "history=afile/h.jsonl").assertBadInput("history", "Not a directory");
        Files.createDirectories(dir.resolve("adir"));
        Cli.run(dir, "run", Cli.exp(dir).toString(), "--set", "history=adir").assertBadInput("history", "adir: cannot write: is a directory");
    }

    @Test
    void mergePlotAndBenchOutputs() throws Exception {
        Files.writeString(dir.resolve("afile"), "x");
        Path f = Cli.exp(dir);
        Cli.run(dir, new FakeRuns(), "enumerate", f.toString(), "--out", "e").assertOk();
        Cli.run(dir, "merge", "e", "--out", "afile/m").assertBadInput("merge: --out", "afile/m", "Not a directory");
        Cli.run(dir, "plot", "e", "--out", "afile/x").assertBadInput("plot: --out", "afile/x", "Not a directory");
        // bench's CSV is checked before the benchmarks run (they take seconds): nothing on stdout
        Cli.run(dir, "bench", "--csv", "nodir/b.csv").assertBadInput("bench: --csv ", "nodir/b.csv: cannot write", "No such file or directory");
        Cli.run(dir, "bench", "--frob").assertBadInput("bench: unknown option --frob");
        // the tcp bench's own options are checked before it starts nodes
        Cli.run(dir, "bench", "--threads", "2").assertBadInput("bench: --threads measures tcp or ucx; add --fabric tcp or --fabric ucx");
        Cli.run(dir, "bench", "--fabric", "ucx", "--connections", "pair").assertBadInput("bench: --connections measures the tcp fabric; add --fabric tcp");
        Cli.run(dir, "bench", "--fabric", "tcp", "--tls", "tcp").assertBadInput("bench: --tls measures the ucx fabric; add --fabric ucx");
        Cli.run(dir, "bench", "--fabric", "rdma").assertBadInput("bench: --fabric 'rdma'; accepted: sim, tcp, ucx");
        Cli.run(dir, "bench", "--fabric", "tcp", "--threads", "0").assertBadInput("bench: --threads 0: expected an integer in [1, 64]");
        Cli.run(dir, "bench", "--fabric", "tcp", "--connections", "socket").assertBadInput("bench: --connections 'socket'; accepted: pair, thread");
    }

    @Test
    void tornReadsOnTheLocalFabric() throws Exception {
        Cli.run(dir, "run", Cli.exp(dir).toString(), "--set", "fabric=local", "--set", "faults.torn_reads=true")
                .assertBadInput("faults.torn_reads: fabric local cannot honour it", "choose fabric sim");
    }

    @Test
    void aRunTooLargeForMemoryIsRefusedWithTheEstimate() throws Exception {
        // inside SmallBank's documented range, but 4 nodes x 1e8 accounts cannot fit in a test JVM: refused before loading
        Path example = Path.of("..", "examples", "smallbank-occ.yaml").toAbsolutePath().normalize();
        Cli.Outcome o = Cli.runReal(dir, new String[] {"run", example.toString(), "--set", "workload.accounts_per_thread=100000000",
                "--set", "threads=1", "--out", dir.resolve("big").toString()});
        assertEquals(Exit.BAD_INPUT, o.code(), o.err());
        String last = o.errLines().get(o.errLines().size() - 1);
        assertTrue(last.startsWith("rcc: the run needs about "), last);
        assertTrue(last.contains("GiB of registered memory (4 nodes x ") && last.contains("largest regions per node: "), last);
        assertTrue(last.contains("lower workload.accounts_per_thread (100000000, default"), "names what to change: " + last);
        assertFalse(o.err().contains("\tat "), o.err());
        assertFalse(Files.exists(dir.resolve("big")));
    }

    @Test
    void theEstimateIsWhatARunRegisters() throws Exception {
        // OCC registers exactly the store, the indexes and the coordinator-log rings: the estimate must equal it, node by node
        Path example = Path.of("..", "examples", "smallbank-occ.yaml").toAbsolutePath().normalize();
        java.util.Map<String, Object> tree = ConfigLoader.load(example);
        for (String s : new String[] {"nodes=3", "threads=2", "coroutines=2", "replication=2", "workload.accounts_per_thread=1000",
                "warmup_ms=0", "duration_ms=0.05", "verify=false"}) ConfigLoader.applySet(tree, s);
        org.rccj.framework.run.Config c = org.rccj.framework.run.ConfigResolver.resolve(tree);
        long[] estimate = new long[1];
        long[] registered = registeredPerNode(c, estimate);
        assertTrue(estimate[0] > 1000 * 2 * 2 * 8, "at least the accounts' balances: " + estimate[0]);
        for (int n = 0; n < c.nodes(); n++) assertEquals(estimate[0], registered[n], "node " + n);
    }

    @Test
    void theEstimateCountsWhatAProtocolRegisters() throws Exception {
        // CALVIN registers batch slots, their input-log copies, forward slots and epoch words beside the store and log
        Path example = Path.of("..", "examples", "smallbank-occ.yaml").toAbsolutePath().normalize();
        java.util.Map<String, Object> tree = ConfigLoader.load(example);
        for (String s : new String[] {"protocol=calvin", "hybrid=all-rpc", "nodes=3", "threads=2", "coroutines=2", "replication=2",
                "workload.accounts_per_thread=1000", "warmup_ms=0", "duration_ms=0.05", "verify=false"}) ConfigLoader.applySet(tree, s);
        org.rccj.framework.run.Config c = org.rccj.framework.run.ConfigResolver.resolve(tree);
        long estimate = org.rccj.framework.run.MemoryEstimate.bytesPerNode(c);
        long[] store = new long[1];
        long[] registered = registeredPerNode(c, store);
        assertTrue(estimate > store[0], "the protocol's regions are counted: " + estimate + " vs the store and log's " + store[0]);
        for (int n = 0; n < c.nodes(); n++) assertEquals(estimate, registered[n], "node " + n);
    }

    /** Runs {@code c} and returns what each node registered; {@code storeEstimate[0]}: the estimate of its store and log. */
    private static long[] registeredPerNode(org.rccj.framework.run.Config c, long[] storeEstimate) {
        long[] registered = new long[c.nodes()];
        org.rccj.framework.run.ExperimentRunner.run(c, null, new org.rccj.framework.run.RunHooks() {
            @Override public void afterRun(org.rccj.framework.runtime.Cluster cluster) {
                for (int n = 0; n < c.nodes(); n++) registered[n] = cluster.memory(n).totalBytes();
                storeEstimate[0] = org.rccj.framework.run.MemoryEstimate.bytesPerNode(c, cluster.store.header(), cluster.workload.tables());
            }
        });
        return registered;
    }

    /** A single-valued option given twice is refused (it used to keep one of the two silently), on every command. */
    @Test
    void singleValuedOptionsGivenTwice() throws Exception {
        Path f = Cli.exp(dir);
        Cli.run(dir, "run", f.toString(), "--out", "a", "--out", "b").assertBadInput("run: option --out is given more than once ('a' and 'b')");
        Cli.run(dir, "run", f.toString(), "-o", "a", "--out", "b").assertBadInput("run: option --out is given more than once");
        Cli.run(dir, "node", f.toString(), "--secret-file", "s1", "--secret-file", "s2")
                .assertBadInput("node: option --secret-file is given more than once ('s1' and 's2')");
        Cli.run(dir, "sweep", f.toString(), "--vary", "coroutines=1,2", "--jobs", "1", "--jobs", "2").assertBadInput("sweep: option --jobs");
        Cli.run(dir, "enumerate", f.toString(), "--out", "e", "--out", "e2").assertBadInput("enumerate: option --out");
        Cli.run(dir, "bench", "--csv", "a.csv", "--csv", "b.csv").assertBadInput("bench: option --csv");
        // --set and --vary add a value each time
        Cli.run(dir, new FakeRuns(), "run", f.toString(), "--set", "seed=1", "--set", "coroutines=2", "--out", "r").assertOk();
    }

    /** Protocol options each in range but not together are refused with the config, before the "running" line. */
    @Test
    void protocolOptionsThatDoNotFitTogether() throws Exception {
        Path f = Cli.file(dir, "d.yaml", "protocol: drtm\nnodes: 3\nthreads: 1\ncoroutines: 2\nworkload:\n  name: smallbank\n");
        Cli.run(dir, "run", f.toString(), "--set", "protocol_options.lease_us=5", "--set", "protocol_options.delta_us=10")
                .assertBadInput("protocol_options.lease_us: 5.0 must exceed protocol_options.delta_us (10.0)");
        Cli.run(dir, "doctor", f.toString(), "--set", "protocol_options.ro_lease_us=1")
                .assertBadInput("protocol_options.ro_lease_us");
    }
}
