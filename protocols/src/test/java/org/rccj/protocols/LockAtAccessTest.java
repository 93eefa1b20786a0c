package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.protocols.locking.ScriptedRuns;

/**
 * MVCC and SUNDIAL lock a write-set tuple when it is accessed, as RCC does (docs/decisions/,
 * 2026-11-23), shown on the scripted conflict of the locking tests: HOLDER reads the counter for update at
 * ~1 us and keeps it 20 us before committing; OLDER (at 5 us) and YOUNGER (at 8 us) ask for it meanwhile.
 * With the lock taken at access they meet HOLDER's lock and abort ({@code lock_conflict}) until HOLDER has
 * committed, and HOLDER commits without an abort. Locking at commit instead (as before) lets OLDER and
 * YOUNGER read and commit first, and HOLDER then dies on their rts or the version they installed.
 */
class LockAtAccessTest {
    @ParameterizedTest(name = "{0} {1}, counter on node {2}")
    @CsvSource({"mvcc, all-rpc, 1", "mvcc, all-onesided, 1", "mvcc, LOCK, 1", "mvcc, READ+COMMIT+RELEASE, 1", "mvcc, all-onesided, 0",
            "sundial, all-rpc, 1", "sundial, all-onesided, 1", "sundial, LOCK, 1", "sundial, READ+RENEW+COMMIT, 1", "sundial, all-onesided, 0"})
    void secondWriterMeetsTheLockBeforeTheFirstCommits(String protocol, String code, int hotNode) {
        RunResult r = ScriptedRuns.run(protocol, code, "wait-die", "workload.hot_node", hotNode);
        String what = protocol + " " + code + " node " + hotNode + ": " + r.abortReasons + " " + r.extra;
        assertTrue(r.verification.serializable(), what + " " + r.verification);
        assertEquals(Boolean.TRUE, r.verification.invariants().get("counter"), what);

        TxnTypeStats holder = ScriptedRuns.type(r, "Holder"), older = ScriptedRuns.type(r, "Older"), younger = ScriptedRuns.type(r, "Younger");
        assertEquals(1, holder.commits, what);
        assertEquals(0, holder.aborts, "the first writer keeps its lock from access to commit: " + what);
        assertEquals(1, older.commits, what);
        assertEquals(1, younger.commits, what);
        assertTrue(older.aborts >= 1 && younger.aborts >= 1, "a second writer must meet the held lock: " + what);
        assertEquals(r.aborts(), (long) r.abortReasons.getOrDefault("lock_conflict", 0L), "only lock conflicts: " + what);
        // OLDER asked at 5 us, but could only commit once HOLDER released after its 20 us hold
        assertTrue(ScriptedRuns.latencyUs(r, "Older") > 15, what);

        // stage samples are kept for committed attempts: each locked its write at access, none double-read it
        assertEquals(holder.commits + older.commits + younger.commits, r.stages.get(Stage.LOCK).count(), "LOCK samples vs commits: " + what);
        assertEquals(0, r.stages.containsKey(Stage.READ) ? r.stages.get(Stage.READ).count() : 0, "write-only accesses are not READ: " + what);
    }
}
