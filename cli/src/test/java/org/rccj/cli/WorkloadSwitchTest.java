package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.Config;
import org.rccj.results.CsvTable;
import org.rccj.experiments.config.ConfigLoader;

/** Switching workloads with --set or --vary drops the old workload's settings the new one lacks, and says so. */
class WorkloadSwitchTest {
    @TempDir Path dir;

    private Path smallbank() throws Exception {
        return Cli.file(dir, "sb.yaml", "name: sb\nprotocol: occ\nnodes: 3\nthreads: 1\nreplication: 2\n"
                + "workload:\n  name: smallbank\n  accounts_per_thread: 500\n  hot_probability: 0.3\n");
    }

    @Test
    void setWorkloadNameDropsTheOldKeysAndSaysWhich() throws Exception {
        Cli.Outcome o = Cli.run(dir, new FakeRuns(), "run", smallbank().toString(), "--set", "workload.name=ycsb", "--out", "y").assertOk();
        assertTrue(o.err().startsWith("rcc: note: workload smallbank -> ycsb: dropped workload.accounts_per_thread (not ycsb settings)"), o.err());
        Config c = RunCommand.resolve(smallbank(), new String[] {"workload=ycsb"});
        assertEquals("ycsb", c.workload().get("name"));
        assertEquals(0.3, c.workload().get("hot_probability"), "a setting both accept is kept");
    }

    @Test
    void settingTheSameWorkloadKeepsItsValues() throws Exception {
        Map<String, Object> tree = ConfigLoader.load(smallbank());
        assertNull(ConfigLoader.applySet(tree, "workload=smallbank"));
        assertEquals(500, org.rccj.framework.run.ConfigResolver.resolve(tree).workload().get("accounts_per_thread"), "not reset to the default");
    }

    @Test
    void varyWorkloadNameWorks() throws Exception {
        FakeRuns runs = new FakeRuns();
        Cli.Outcome o = Cli.run(dir, runs, "sweep", smallbank().toString(), "--vary", "workload.name=smallbank,ycsb", "--out", "w").assertOk();
        TreeSet<String> names = new TreeSet<>();
        for (Config c : runs.configs) names.add((String) c.workload().get("name"));
        assertEquals(new TreeSet<>(java.util.List.of("smallbank", "ycsb")), names);
        assertTrue(o.err().contains("rcc: note: workload smallbank -> ycsb: dropped workload.accounts_per_thread"), o.err());
        assertEquals(2, CsvTable.read(dir.resolve("w/sweep.csv")).rows().size());
    }
}
