package org.rccj.protocols.calvin;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.spi.Stage;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.protocols.Runs;

/** What the stages do, seen from outside: inputs land on exactly the backups; the epoch length sets the latency. */
class CalvinStagesTest {
    /**
     * Per node, per source node: whether that node hosts an input-log ring for the source (only the source's
     * replication - 1 successors do, framework BackupRings) holding any non-zero byte.
     */
    static boolean[][] logged(Cluster c) {
        int nodes = c.nodes(), backups = c.shape.replication() - 1;
        boolean[][] out = new boolean[nodes][nodes];
        for (int n = 0; n < nodes; n++) {
            RegisteredMemory m = c.memory(n);
            int region = -1;
            for (int r = 0; r < m.regionCount(); r++) if (m.regionName(r).equals("calvin.inputlog")) region = r;
            assertTrue(region >= 0, "no input log region");
            if (backups == 0) {
                for (long off = 0; off < m.regionSize(region); off += 8) assertEquals(0, m.getLong(region, off), "replication 1: nothing logged");
                continue;
            }
            long ring = m.regionSize(region) / backups;
            for (int s = 0; s < nodes; s++) {
                int b = Math.floorMod(n - s, nodes);
                if (b < 1 || b > backups) continue;   // no ring for a node this one does not back up
                for (long off = 0; off < ring && !out[n][s]; off += 8) out[n][s] = m.getLong(region, (b - 1) * ring + off) != 0;
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void inputsAreLoggedOnTheBackupsOnly(String code) {
        AtomicReference<boolean[][]> seen = new AtomicReference<>();
        RunHooks capture = new RunHooks() {
            @Override public void afterRun(Cluster c) { seen.set(logged(c)); }
        };
        // 4 nodes, replication 2: node s's inputs go to node s+1 only
        RunResult r = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code, "nodes", 4), capture);
        assertTrue(r.verification.passed(), r.verification.toString());
        boolean[][] log = seen.get();
        for (int n = 0; n < 4; n++) {
            for (int s = 0; s < 4; s++) assertEquals(n == (s + 1) % 4, log[n][s], "node " + n + " holds node " + s + "'s inputs");
        }
        assertTrue(r.stages.get(Stage.LOG).mean() > 1_000, "logging a batch takes a round trip: " + r.stages.get(Stage.LOG).mean());

        RunResult single = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code, "nodes", 4, "replication", 1), capture);
        assertTrue(single.verification.passed());
        for (boolean[] row : seen.get()) for (boolean b : row) assertFalse(b, "replication 1 logs nothing");
        assertEquals(0, single.stages.get(Stage.LOG).max());
    }

    @Test
    void longerEpochsMeanLongerLatency() {
        RunResult shortEpochs = Runs.run(Runs.smallBank("protocol", "calvin", "protocol_options.epoch_us", 5.0));
        RunResult longEpochs = Runs.run(Runs.smallBank("protocol", "calvin", "protocol_options.epoch_us", 40.0));
        assertTrue(shortEpochs.verification.passed() && longEpochs.verification.passed());
        double a = shortEpochs.total.latency.quantile(0.5), b = longEpochs.total.latency.quantile(0.5);
        // a transaction waits on average half an epoch for its batch to be sealed
        assertTrue(b - a > 10_000, "p50 " + a + " ns with 5 us epochs, " + b + " ns with 40 us epochs");
        assertTrue(longEpochs.extra.get("calvin_epochs_per_node") < shortEpochs.extra.get("calvin_epochs_per_node") / 4);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void epochsShorterThanTheSchedulersCanTakeAreHeldBackNotLost(String code) {
        // 0.2 us epochs: far more batches than the schedulers consume, so the sequencers run into flow control
        RunResult r = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code, "protocol_options.epoch_us", 0.2));
        assertTrue(r.extra.get("calvin_flow_control_waits") > 0, code + ": " + r.extra);
        assertTrue(r.verification.passed(), code + ": " + r.verification);
        assertTrue(r.commits() > 20, code + ": commits " + r.commits());
        assertEquals(0, r.aborts());
    }
}
