package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.ExperimentRunner;
import org.rccj.experiments.Exit;
import org.rccj.framework.run.MemoryEstimate;

/**
 * One memory estimate, consulted before any allocation or loop over the data (issue 38.1/38.3, 39.4; decision 0156):
 * a run that cannot fit is refused with exit 2 and one line naming the size and the settings that shrink it, for each
 * kind of memory. Each refusal comes well within 10 s (the work it prevents took minutes and filled the machine), and
 * nothing was loaded: no "loading" line, no node process started, no output directory.
 */
class MemoryRefusedBeforeLoadingTest {
    @TempDir Path dir;

    static final Path SMALLBANK = Path.of("..", "examples", "smallbank-occ.yaml").toAbsolutePath().normalize();
    static final Path YCSB = Path.of("..", "examples", "ycsb-rcc.yaml").toAbsolutePath().normalize();
    static final Path TPCC = Path.of("..", "examples", "tpcc-drtmh.yaml").toAbsolutePath().normalize();

    /** Runs {@code rcc run CONFIG --set ...} through the launcher (multi-process fabrics) or in this JVM, timed. */
    private Cli.Outcome refused(Path config, String... sets) {
        List<String> args = new ArrayList<>(List.of("run", config.toString(), "--out", dir.resolve("out").toString()));
        for (String s : sets) {
            args.add("--set");
            args.add(s);
        }
        long t0 = System.nanoTime();
        Cli.Outcome o = Cli.run(dir, Launcher.around((c, p) -> ExperimentRunner.run(c, p)), args.toArray(String[]::new));
        double s = (System.nanoTime() - t0) / 1e9;
        assertEquals(Exit.BAD_INPUT, o.code(), o.err());
        assertTrue(o.errLines().get(o.errLines().size() - 1).startsWith("rcc: the "), "the last line says why: " + o.err());
        assertFalse(o.err().contains("\tat "), "no stack trace: " + o.err());
        assertTrue(s < 10, "refused before the work, not after it: " + s + " s");
        assertFalse(o.err().contains("loading") || o.err().contains("node processes on 127."), "nothing was loaded or started: " + o.err());
        assertFalse(Files.exists(dir.resolve("out")), "no result directory");
        return o;
    }

    @Test
    void recordsOfEveryLocalNodeProcessTogether() {
        // each tcp node process holds about 0.8 GiB of YCSB records, which fits its JVM; enough of them exceed this machine
        long perNode = 800L << 20;
        int nodes = (int) Math.min(1024, MemoryEstimate.memAvailable() / perNode + 4);
        Cli.Outcome o = refused(YCSB, "fabric=tcp", "nodes=" + nodes, "threads=1", "coroutines=1", "verify=false",
                "workload.keys_per_thread=800000", "workload.record_bytes=1000");
        assertTrue(o.err().contains("the tcp run's " + nodes + " node processes on this host need about "), o.err());
        assertTrue(o.err().contains("available (MemAvailable in /proc/meminfo): lower workload.keys_per_thread (800000"), o.err());
    }

    @Test
    void protocolRegionsCalvinBatchSlots() {
        // 200 nodes x 2 slots per sender of a 1 MiB batch on every node: the tables are small, CALVIN's regions are not
        Cli.Outcome o = refused(SMALLBANK, "protocol=calvin", "hybrid=all-rpc", "nodes=200", "threads=1", "coroutines=1",
                "replication=1", "workload.accounts_per_thread=100", "protocol_options.batch_bytes=1048576");
        assertTrue(o.err().contains("of registered memory (200 nodes x ") && o.err().contains("calvin.requests"), o.err());
        assertTrue(o.err().contains("lower protocol_options.batch_bytes (1048576"), o.err());
    }

    @Test
    void heapOfLocationCaches() throws Exception {
        // a profile that bounds the cache keeps one per node (decision 0155): 160 x 8 x 4 nodes' preloaded caches of 128 MiB
        Path profile = Files.writeString(dir.resolve("bounded.properties"), "base=cx4-edr\nlocation_cache.mb=100\n");
        Cli.Outcome o = refused(SMALLBANK, "hybrid=all-onesided", "nodes=160", "threads=8", "coroutines=4", "replication=1",
                "workload.accounts_per_thread=1000", "profile=" + profile);
        assertTrue(o.err().contains("of heap (location caches (160 x 128.0 MiB)"), o.err());
        assertTrue(o.err().contains("(-Xmx): set location_cache.preload=false"), o.err());
    }

    @Test
    void heapOfCoroutines() {
        Cli.Outcome o = refused(SMALLBANK, "nodes=64", "threads=16", "coroutines=1024", "replication=1", "workload.accounts_per_thread=100");
        assertTrue(o.err().contains("of heap (coroutines (1048576 x 15.0 KiB)"), o.err());
        assertTrue(o.err().contains("(-Xmx): lower coroutines (1024) or threads (16); or use fewer nodes"), o.err());
    }

    @Test
    void tpccWarehousesBeforeTheConstructorLoops() {
        // 4 M warehouses: the constructor's loop over every district's customers would spin for many minutes
        Cli.Outcome o = refused(TPCC, "nodes=64", "threads=64", "coroutines=1", "workload.warehouses_per_thread=1024");
        assertTrue(o.err().contains("the run needs at least ") && o.err().contains("GiB of registered memory (64 nodes x "), o.err());
        assertTrue(o.err().contains("lower workload.warehouses_per_thread (1024"), o.err());
    }
}
