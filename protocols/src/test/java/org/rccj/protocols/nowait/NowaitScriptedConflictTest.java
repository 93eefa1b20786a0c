package org.rccj.protocols.nowait;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.locking.ScriptedRuns;

/**
 * NOWAIT's defining behaviour on the scripted conflict of WAITDIE's test: nobody waits, whoever meets the
 * held lock aborts at once (OLDER and YOUNGER alike) and retries until HOLDER is done.
 */
class NowaitScriptedConflictTest {
    @ParameterizedTest(name = "{0}, counter on node {1}")
    @CsvSource({"all-rpc,1", "all-onesided,1", "LOCK,1", "RELEASE,1", "all-onesided,0"})
    void everyConflictAbortsAtOnce(String code, int hotNode) {
        RunResult r = ScriptedRuns.run("nowait", code, "wait-die", "workload.hot_node", hotNode);
        String what = code + " node " + hotNode + ": " + r.abortReasons;
        assertTrue(r.verification.serializable(), what + " " + r.verification);
        assertEquals(Boolean.TRUE, r.verification.invariants().get("counter"), what);
        assertEquals(1, ScriptedRuns.type(r, "Holder").commits, what);
        assertEquals(0, ScriptedRuns.type(r, "Holder").aborts, what);
        assertEquals(1, ScriptedRuns.type(r, "Older").commits, what);
        assertTrue(ScriptedRuns.type(r, "Older").aborts >= 1, "OLDER met the held lock and must abort: " + what);
        assertTrue(ScriptedRuns.type(r, "Younger").aborts >= 1, what);
        assertEquals(r.aborts(), (long) r.abortReasons.get("lock_conflict"), what);
        // HOLDER kept the lock 20 us and nobody waited for it: OLDER retried until it was free
        assertTrue(ScriptedRuns.latencyUs(r, "Older") > 20, what);
    }
}
