package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Stage;
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

    static RunResult run(String protocol, int code, int reads, int replication) {
        return Runs.run(SmallRuns.cluster("remote-writes", "protocol", protocol, "hybrid", code, "nodes", 2, "threads", 1,
                "coroutines", 1, "replication", replication, "warmup_ms", 0.05, "duration_ms", 0.5, "workload.reads", reads));
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
     * node 1 (node 0's backup: a WRITE) and to node 0 itself (node 1's backup: a local-shortcut store).
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"occ", "nowait"})
    void logGoesToTheBackupsOfWrittenPartitions(String protocol) {
        RunResult r = run(protocol, HybridCode.allOneSided(stages(protocol)).code(), 0, 2);
        assertTrue(r.verification.passed(), protocol + " " + r.verification);
        assertEquals(0, r.aborts(), r.abortReasons.toString());
        assertPerCommit(1, r.network.local, r, protocol + ": the entry for the written partition's backup (the coordinator's node)");
        assertPerCommit(3, r.network.write, r, protocol + ": 2 commit WRITEs and the entry for the coordinator's backup");
    }

    /**
     * After the commit decision nothing waits for the RPC tail (passive RPCs, WriteStage.runPassive): COMMIT and a
     * committed transaction's RELEASE take less than one wire latency on RPC, while the one-sided COMMIT still
     * waits for its signaled unlock WRITE (a round trip). The requests are still sent and counted
     * ({@link #commitIsOneRoundTrip}) and the runs verify.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"occ,false", "nowait,true", "waitdie,true", "mvcc,false", "sundial,false"})
    void passiveRpcTailAddsNoRoundTrip(String protocol, boolean readLocked) {
        List<Stage> stages = stages(protocol);
        int tail = Stage.COMMIT.bit | Stage.RELEASE.bit, all = HybridCode.allOneSided(stages).code();
        long oneWay = org.rccj.primitives.CostProfile.load(org.rccj.primitives.CostProfile.DEFAULT).oneWayNs;
        RunResult rpc = run(protocol, all & ~tail, 1);
        assertTrue(rpc.verification.passed(), protocol + " " + rpc.verification);
        assertTrue(rpc.stages.get(Stage.COMMIT).mean() < oneWay, protocol + ": RPC COMMIT " + rpc.stages.get(Stage.COMMIT).mean() + " ns");
        if (readLocked) {
            assertTrue(rpc.stages.get(Stage.RELEASE).mean() < oneWay, protocol + ": RPC RELEASE " + rpc.stages.get(Stage.RELEASE).mean() + " ns");
        }
        RunResult one = run(protocol, tail, 1);
        assertTrue(one.verification.passed(), protocol + " " + one.verification);
        assertTrue(one.stages.get(Stage.COMMIT).mean() > 2 * oneWay, protocol + ": one-sided COMMIT " + one.stages.get(Stage.COMMIT).mean() + " ns");
    }
}
