package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.stats.Histogram;
import org.rccj.testkit.SmallRuns;

/**
 * COMMIT installs and unlocks in one round trip on either transport (DrTM+H; the artifact's commit
 * handlers), and RELEASE runs after a commit only for read locks. Conflict-free single-key writes on
 * another node ("remote-writes", no log: replication 1), with COMMIT and RELEASE bound to one transport and
 * every other stage to the other, so every operation of that transport belongs to the commit tail:
 * RPC, one request per commit (two for 2PL with a read: the read lock's RELEASE); one-sided, one doorbell
 * batch per commit holding the install WRITEs and the unlock WRITE.
 */
class CommitRoundTripsTest {
    /** The measured window cuts the transactions in flight at its ends: at most this many ops per coroutine. */
    static final long SLACK = 4;

    static RunResult run(String protocol, int code, int reads) { return run(protocol, code, reads, 1); }

    static RunResult run(String protocol, int code, int reads, int replication, Object... kv) {
        return run(RunHooks.NONE, protocol, code, reads, replication, kv);
    }

    static RunResult run(RunHooks hooks, String protocol, int code, int reads, int replication, Object... kv) {
        return Runs.run(SmallRuns.set(SmallRuns.cluster("remote-writes", "protocol", protocol, "hybrid", code, "nodes", 2, "threads", 1,
                "coroutines", 1, "replication", replication, "warmup_ms", 0.05, "duration_ms", 0.5, "workload.reads", reads), kv), hooks);
    }

    static List<Stage> stages(String protocol) {
        return java.util.ServiceLoader.load(ProtocolFactory.class).stream().map(java.util.ServiceLoader.Provider::get)
                .filter(f -> f.name().equals(protocol)).findFirst().orElseThrow().stages();
    }

    static long count(RunResult r, Stage s) {
        Histogram h = r.stages.get(s);
        return h == null ? 0 : h.count();
    }

    static void assertPerCommit(long expected, long total, RunResult r, String what) {
        long c = r.commits();
        assertTrue(Math.abs(total - expected * c) <= SLACK * 2, what + ": " + total + " for " + c + " commits, expected " + expected + " each");
    }

    /**
     * @param writes one-sided WRITEs of one commit (install words and the unlock)
     * @param readLocked whether the protocol holds a read lock until after the commit (2PL)
     */
    @ParameterizedTest(name = "{0}, reads {1}")
    @CsvSource({"occ,0,2,false", "occ,1,2,false", "nowait,0,2,false", "nowait,1,2,true", "waitdie,0,2,false", "waitdie,1,2,true",
                "mvcc,0,3,false", "mvcc,1,3,false", "sundial,0,4,false", "sundial,1,4,false"})
    void commitIsOneRoundTrip(String protocol, int reads, int writes, boolean readLocked) {
        List<Stage> stages = stages(protocol);
        int tail = Stage.COMMIT.bit | Stage.RELEASE.bit, all = HybridCode.allOneSided(stages).code();
        String what = protocol + " reads " + reads;
        long releases = readLocked ? 1 : 0;

        RunResult rpc = run(protocol, all & ~tail, reads);
        assertTrue(rpc.verification.passed(), what + " " + rpc.verification);
        assertTrue(rpc.commits() > 20, what + ": too few commits " + rpc.commits());
        assertEquals(0, rpc.aborts(), what + ": nothing conflicts " + rpc.abortReasons);
        assertPerCommit(1 + releases, rpc.network.rpc, rpc, what + ", RPC tail: requests");
        assertPerCommit(releases, count(rpc, Stage.RELEASE), rpc, what + ": RELEASE after a commit only for read locks");

        RunResult one = run(protocol, tail, reads);
        assertTrue(one.verification.passed(), what + " " + one.verification);
        assertEquals(0, one.aborts(), what + ": nothing conflicts " + one.abortReasons);
        assertPerCommit(1 + releases, one.network.doorbells, one, what + ", one-sided tail: doorbells");
        assertPerCommit(writes + releases, one.network.write, one, what + ", one-sided tail: WRITEs");
        assertPerCommit(releases, count(one, Stage.RELEASE), one, what + ": RELEASE after a commit only for read locks");
        assertPerCommit(1, count(one, Stage.COMMIT), one, what + ": COMMIT stages");
    }

    /**
     * LOG goes to the backups of every partition the transaction writes and of the coordinator's (the artifact's
     * log_remote). Two nodes, one backup each: node 0's transaction writes node 1's key, so its entry goes to
     * node 1 (node 0's backup: a WRITE) and to node 0 itself (node 1's backup): with {@code local_access: cpu} a
     * local-shortcut store and a direct call of the log-clean handler, with {@code network} (the artifact's node id
     * -1) a WRITE and a log-clean message through the own NIC like the other node's.
     */
    @ParameterizedTest(name = "{0}, local_access {1}")
    @CsvSource({"occ,cpu", "nowait,cpu", "occ,network", "nowait,network"})
    void logGoesToTheBackupsOfWrittenPartitions(String protocol, String localAccess) {
        RunResult r = run(protocol, HybridCode.allOneSided(stages(protocol)).code(), 0, 2, "local_access", localAccess);
        String what = protocol + ", local_access " + localAccess;
        assertTrue(r.verification.passed(), what + " " + r.verification);
        assertEquals(0, r.aborts(), r.abortReasons.toString());
        boolean network = localAccess.equals("network");
        assertPerCommit(network ? 0 : 2, r.network.local, r, what + ": the entry and the log-clean message for the written partition's backup (the coordinator's node)");
        assertPerCommit(network ? 4 : 3, r.network.write, r, what + ": 2 commit WRITEs and the entries for the backups through the NIC");
        assertPerCommit(network ? 2 : 1, r.network.rpc, r, what + ": the log-clean messages through the NIC");
    }

    /**
     * {@code passive_ack} is the artifact's PA on both halves of COMMIT (occ.cc:337-363 and 749-760: no reply with
     * PA; rdma_req_helper.hpp:226-283: the write-back WRITEs unsignaled through {@code post_batch_pending}): with it,
     * COMMIT waits for nothing on either transport (less than one wire latency), without it both wait a round
     * trip. RELEASE is awaited whatever PA says (nowait_rdma.cc:450-453): a committed 2PL transaction's read-lock
     * RELEASE takes a round trip on both transports in both modes.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"occ,false", "nowait,true", "waitdie,true", "mvcc,false", "sundial,false"})
    void passiveAckCoversBothHalvesOfCommit(String protocol, boolean readLocked) {
        List<Stage> stages = stages(protocol);
        int tail = Stage.COMMIT.bit | Stage.RELEASE.bit, all = HybridCode.allOneSided(stages).code();
        long oneWay = org.rccj.primitives.CostProfile.load(org.rccj.primitives.CostProfile.DEFAULT).oneWayNs;
        for (boolean pa : new boolean[] {true, false}) {
            for (int code : new int[] {all & ~tail, tail}) {
                String what = protocol + (code == tail ? " one-sided" : " RPC") + " tail, passive_ack " + pa;
                RunResult r = run(protocol, code, 1, 1, "passive_ack", pa);
                assertTrue(r.verification.passed(), what + " " + r.verification);
                double commit = r.stages.get(Stage.COMMIT).mean();
                if (pa) assertTrue(commit < oneWay, what + ": COMMIT " + commit + " ns");
                else assertTrue(commit > 2 * oneWay, what + ": COMMIT " + commit + " ns");
                if (readLocked) {
                    double release = r.stages.get(Stage.RELEASE).mean();
                    assertTrue(release > 2 * oneWay, what + ": RELEASE " + release + " ns");
                }
            }
        }
    }

    /**
     * OCC's RPC COMMIT sends one message per written record, flushed together (the artifact's
     * {@code write_back_oneshot}, occ.cc:337-363); the 2PL protocols' commit handlers take one batched request per
     * node. Two written keys, both on the other node.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"occ,2", "nowait,1", "mvcc,1"})
    void rpcCommitMessagesPerCommit(String protocol, long messages) {
        int tail = Stage.COMMIT.bit | Stage.RELEASE.bit, all = HybridCode.allOneSided(stages(protocol)).code();
        RunResult r = run(protocol, all & ~tail, 0, 1, "workload.writes", 2);
        assertTrue(r.verification.passed(), protocol + " " + r.verification);
        assertEquals(0, r.aborts(), r.abortReasons.toString());
        assertPerCommit(messages, r.network.rpc, r, protocol + ": RPC COMMIT requests");
    }

    /**
     * After LOG a log-clean message goes to every log target (the artifact's {@code log_ack}, occ.cc:424-432; its
     * handler {@code clean_log} applies the items of the partitions its node backs, default_log_cleaner_impl.hpp:37-83),
     * on either LOG transport. Two nodes, one backup each: node 0's entry goes to node 1 (its own partition's
     * backup, which does not back the written partition: it skips the item) and to node 0 (the written
     * partition 1's backup: it applies it); and symmetrically for node 1's transactions.
     */
    @ParameterizedTest(name = "{0}, LOG one-sided {1}, passive_ack {2}")
    @CsvSource({"occ,true,true", "occ,false,true", "nowait,true,false", "nowait,false,false"})
    void logCleanReachesEveryBackup(String protocol, boolean oneSidedLog, boolean pa) {
        int all = HybridCode.allOneSided(stages(protocol)).code();
        Cluster[] seen = new Cluster[1];
        RunHooks hooks = new RunHooks() {
            @Override public void afterRun(Cluster cluster) { seen[0] = cluster; }
        };
        RunResult r = run(hooks, protocol, oneSidedLog ? all : all & ~Stage.LOG.bit, 0, 2, "passive_ack", pa);
        assertTrue(r.verification.passed(), protocol + " " + r.verification);
        long total = r.simCommitsTotal, applied = 0;
        for (int node = 0; node < 2; node++) {
            long messages = seen[0].log.cleanMessages(node);
            // each commit (warm-up included) sends one clean message to each node
            assertEquals(total, messages, protocol + ": node " + node + " served " + messages + " clean messages for " + total + " commits");
            assertTrue(seen[0].log.cleanedItems(node) > 0, protocol + ": node " + node + " applied no item");
            applied += seen[0].log.cleanedItems(node);
        }
        assertEquals(total, applied, protocol + ": each commit's one written item is applied at exactly one backup");
    }

    /**
     * DrTM logs without the clean message: the artifact's DBTX path ({@code RemoteSet::log_remote},
     * src/db/remote_set.cc:197-230) has its {@code log_ack} commented out.
     */
    @org.junit.jupiter.api.Test
    void drtmSendsNoLogCleanMessage() {
        Cluster[] seen = new Cluster[1];
        RunHooks hooks = new RunHooks() {
            @Override public void afterRun(Cluster cluster) { seen[0] = cluster; }
        };
        RunResult r = run(hooks, "drtm", HybridCode.allOneSided(stages("drtm")).code(), 0, 2);
        assertTrue(r.verification.passed(), "drtm " + r.verification);
        assertTrue(r.commits() > 0);
        for (int node = 0; node < 2; node++) assertEquals(0, seen[0].log.cleanMessages(node), "drtm: node " + node);
    }
}
