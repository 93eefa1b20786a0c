package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
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
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.results.CsvTable;
import org.rccj.experiments.Runner;
import org.rccj.experiments.Exit;

/**
 * Sweeps, enumerations, merges and plots of real protocols on SmallBank with the real runner on the sim fabric
 * (tiny clusters, a fraction of a virtual millisecond per run). Iterates over every registered protocol, so a
 * protocol added later is covered without naming it here.
 */
class ExperimentsAcceptanceTest {
    @TempDir Path dir;

    static final Runner REAL = ExperimentRunner::run;

    /** The registered protocols, without this module's test-only fake. */
    static List<ProtocolFactory> realProtocols() {
        List<ProtocolFactory> out = new ArrayList<>();
        for (ProtocolFactory f : Registry.protocols()) if (!f.getClass().getPackageName().equals("org.rccj.cli")) out.add(f);
        return out;
    }

    Path tiny(String protocol) throws Exception {
        return Cli.file(dir, protocol + ".yaml", "name: tiny-" + protocol + "\nprotocol: " + protocol + "\nfabric: sim\nnodes: 2\nthreads: 1\n"
                + "coroutines: 2\nreplication: 2\nworkload:\n  name: smallbank\n  accounts_per_thread: 1000\n"
                // long enough for every protocol to commit in every code (DrTM's default read leases are 0.4 ms)
                + "warmup_ms: 0.05\nduration_ms: 1.0\nverify: false\nseed: 3\n");
    }

    @Test
    void everyProtocolEnumeratesAllItsCodesAndPlots() throws Exception {
        List<ProtocolFactory> protocols = realProtocols();
        assertFalse(protocols.isEmpty(), "no real protocol registered");
        for (ProtocolFactory p : protocols) {
            String out = "enum-" + p.name();
            Cli.Outcome o = Cli.run(dir, REAL, "enumerate", tiny(p.name()).toString(), "--jobs", "2", "--out", out);
            assertEquals(Exit.OK, o.code(), p.name() + ": " + o.err());
            CsvTable t = CsvTable.read(dir.resolve(out).resolve("hybrid.csv"));
            int codes = 1 << p.stages().size();
            assertEquals(codes, t.rows().size(), p.name() + ": rows == 2^stages");
            for (int r = 0; r < codes; r++) {
                assertTrue(t.number(r, "throughput_tps") > 0, p.name() + " code " + t.get(r, "code") + " committed nothing");
                assertEquals(p.name(), t.get(r, "protocol"));
            }
            for (var s : p.stages()) assertTrue(t.column(s.name() + "_mean_us") > 0, p.name() + ": a column for stage " + s);
            assertTrue(o.out().contains("best: code ") && o.out().contains("gain over the better pure code"), o.out());

            Cli.run(dir, "plot", out).assertOk();
            Pngs.assertChart(dir.resolve(out).resolve("hybrid-scatter.png"));
            Pngs.assertChart(dir.resolve(out).resolve("stage-breakdown.png"));
        }
    }

    @Test
    void threeShardsMergedEqualOneFullSimRunByteForByte() throws Exception {
        ProtocolFactory p = realProtocols().stream().filter(f -> f.name().equals("occ")).findFirst().orElse(realProtocols().get(0));
        Path f = tiny(p.name());
        Cli.run(dir, REAL, "enumerate", f.toString(), "--jobs", "2", "--out", "full").assertOk();
        for (int i = 1; i <= 3; i++) {
            Cli.run(dir, REAL, "enumerate", f.toString(), "--shard", i + "/3", "--jobs", "1", "--out", "shard" + i).assertOk();
        }
        Cli.run(dir, "merge", "shard1", "shard2", "shard3", "--out", "merged").assertOk();
        byte[] full = Files.readAllBytes(dir.resolve("full/hybrid.csv"));
        assertEquals(1 + (1 << p.stages().size()), new String(full).lines().count());
        assertArrayEquals(full, Files.readAllBytes(dir.resolve("merged/hybrid.csv")), "merged shards == one full run, byte for byte");
    }

    @Test
    void sweepRowsAndDeterminismUnderParallelism() throws Exception {
        String protocol = realProtocols().get(0).name();
        Path f = tiny(protocol);
        String[] args = {"sweep", f.toString(), "--vary", "coroutines=1,2", "--vary", "hybrid=all-rpc,all-onesided", "--repeat", "2"};
        Cli.Outcome a = Cli.run(dir, REAL, concat(args, "--jobs", "1", "--out", "seq")).assertOk();
        Cli.Outcome b = Cli.run(dir, REAL, concat(args, "--jobs", "2", "--out", "par")).assertOk();
        CsvTable t = CsvTable.read(dir.resolve("seq/sweep.csv"));
        assertEquals(2 * 2, t.rows().size(), "rows == product of the value counts, seeds aggregated");
        assertEquals("2", t.get(0, "runs"));
        assertTrue(t.column("latency_mean_us_ci95") > 0);
        assertEquals(Files.readString(dir.resolve("seq/sweep.csv")), Files.readString(dir.resolve("par/sweep.csv")),
                "sim results do not depend on how many runs share the machine");
        Cli.run(dir, "plot", "par").assertOk();
        Pngs.assertChart(dir.resolve("par/sweep-throughput.png"));
        Pngs.assertChart(dir.resolve("par/sweep-latency.png"));
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
