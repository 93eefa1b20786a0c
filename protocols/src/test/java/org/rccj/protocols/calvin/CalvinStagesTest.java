package org.rccj.protocols.calvin;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.protocols.Runs;

/**
 * What the stages do, seen from outside: inputs land on exactly the backups; the epoch length sets the latency; the
 * epoch barrier holds epochs back; the active participants execute.
 */
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
        assertNull(r.stages.get(Stage.LOG), "replication is asynchronous: no transaction waits for it");

        RunResult single = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code, "nodes", 4, "replication", 1), capture);
        assertTrue(single.verification.passed());
        for (boolean[] row : seen.get()) for (boolean b : row) assertFalse(b, "replication 1 logs nothing");
    }

    @Test
    void longerEpochsMeanLongerLatency() {
        RunResult shortEpochs = Runs.run(Runs.smallBank("protocol", "calvin", "protocol_options.epoch_us", 5.0));
        RunResult longEpochs = Runs.run(Runs.smallBank("protocol", "calvin", "protocol_options.epoch_us", 40.0));
        assertTrue(shortEpochs.verification.passed() && longEpochs.verification.passed());
        double a = shortEpochs.total.latency.quantile(0.5), b = longEpochs.total.latency.quantile(0.5);
        // a transaction waits on average half an epoch for its batch to be sealed
        assertTrue(b - a > 10_000, "p50 " + a + " ns with 5 us epochs, " + b + " ns with 40 us epochs");
        // 1.2 ms of run: at most one 40 us epoch per 40 us (plus the final one); 5 us epochs are held back by the
        // barrier (an epoch lasts until every node executed it), but still come more than twice as often
        double longCount = longEpochs.extra.get("calvin_epochs_per_node"), shortCount = shortEpochs.extra.get("calvin_epochs_per_node");
        assertTrue(longCount <= 1200 / 40 + 2, "40 us epochs: " + longCount);
        assertTrue(shortCount > 2 * longCount, "5 us epochs: " + shortCount + ", 40 us epochs: " + longCount);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void epochsShorterThanTheBarrierAllowsAreHeldBackNotLost(String code) {
        // 0.2 us epochs: far shorter than a round of the barrier, which then sets the pace; nothing is lost or skipped
        RunResult r = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code, "protocol_options.epoch_us", 0.2));
        double epochs = r.extra.get("calvin_epochs_per_node");
        assertTrue(epochs < 1200 / 0.2 / 10, code + ": the barrier did not hold epochs back: " + r.extra);
        assertTrue(r.extra.get("calvin_epoch_sync_us_per_epoch") > 0.2, code + ": " + r.extra);
        assertTrue(r.verification.passed(), code + ": " + r.verification);
        assertTrue(r.commits() > 20, code + ": commits " + r.commits());
        assertEquals(0, r.aborts());
    }

    /**
     * The logic runs at the active participants: on one node exactly once per read-write transaction (SmallBank's
     * standard mix has 15% read-only Balance, which no participant executes), on three nodes more than once per
     * transaction (SendPayment and Amalgamate often write on two nodes).
     */
    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void activeParticipantsExecute(String code) {
        RunResult one = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code, "nodes", 1, "replication", 1));
        assertTrue(one.verification.passed(), code + ": " + one.verification);
        double single = one.extra.get("calvin_executions_per_txn");
        assertTrue(single > 0.75 && single < 0.95, code + ": one node: " + one.extra);
        RunResult three = Runs.run(Runs.smallBank("protocol", "calvin", "hybrid", code));
        assertTrue(three.verification.passed(), code + ": " + three.verification);
        assertTrue(three.extra.get("calvin_executions_per_txn") > 1.05, code + ": three nodes: " + three.extra);
    }
}
