package org.rccj.protocols.waitdie;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.locking.ScriptedRuns;

/**
 * WAITDIE's defining behaviour, scripted (see ScriptedLocks "wait-die"): HOLDER (younger) holds the counter;
 * OLDER asks for it and waits, then commits without an abort; YOUNGER asks and dies (retrying with its
 * timestamp) until both are done. For RPC and one-sided LOCKs, with either unlock (COMMIT), with the counter on
 * another node and on the requesters' own node (local shortcut).
 */
class WaitDieScriptedConflictTest {
    @ParameterizedTest(name = "{0}, counter on node {1}")
    @CsvSource({"all-rpc,1", "all-onesided,1", "LOCK,1", "RELEASE,1", "LOG+COMMIT,1", "RELEASE+COMMIT,1", "all-rpc,0", "all-onesided,0", "RELEASE+COMMIT,0"})
    void olderWaitsYoungerDies(String code, int hotNode) { olderWaitsYoungerDies(code, hotNode, "exclusive"); }

    /** The same with shared read locks: a writer's lock word is WRITER | timestamp, decided by age as before. */
    @ParameterizedTest(name = "shared read locks: {0}, counter on node {1}")
    @CsvSource({"all-rpc,1", "all-onesided,1", "LOCK,1", "RELEASE,1", "RELEASE+COMMIT,1", "all-onesided,0", "RELEASE+COMMIT,0"})
    void olderWaitsYoungerDiesWithSharedReadLocks(String code, int hotNode) { olderWaitsYoungerDies(code, hotNode, "shared"); }

    private static void olderWaitsYoungerDies(String code, int hotNode, String readLocks) {
        RunResult r = ScriptedRuns.run("waitdie", code, "wait-die", "workload.hot_node", hotNode, "protocol_options.read_locks", readLocks);
        String what = readLocks + " " + code + " node " + hotNode + ": " + r.abortReasons + " " + r.extra;
        assertTrue(r.verification.passed(), what + " " + r.verification);
        assertEquals(Boolean.TRUE, r.verification.invariants().get("order_holder_older_younger"), what);

        assertEquals(1, ScriptedRuns.type(r, "Holder").commits, what);
        assertEquals(0, ScriptedRuns.type(r, "Holder").aborts, what);
        assertEquals(1, ScriptedRuns.type(r, "Older").commits, what);
        assertEquals(0, ScriptedRuns.type(r, "Older").aborts, "the older transaction must wait, not die: " + what);
        assertEquals(1, ScriptedRuns.type(r, "Younger").commits, what);
        assertTrue(ScriptedRuns.type(r, "Younger").aborts >= 1, "the younger transaction must die: " + what);
        assertEquals(ScriptedRuns.type(r, "Younger").aborts, r.aborts(), "only the younger aborts: " + what);
        assertTrue(r.abortReasons.get("wait_die") >= 1, what);
        assertTrue(Set.of("wait_die", "yield_to_older_waiter").containsAll(r.abortReasons.keySet()), what);

        assertEquals(1.0, r.extra.get("waits"), "exactly OLDER waited: " + what);
        assertTrue(r.extra.get("dies") >= 1, what);
        // OLDER waited for HOLDER's 20 us hold (HOLDER took the counter at ~2-3 us, OLDER asked at 5 us)
        assertTrue(r.extra.get("max_wait_us") > 10, what);
        boolean rpcLock = !code.equals("all-onesided") && !code.equals("LOCK");
        assertEquals(rpcLock ? 1.0 : 0.0, r.extra.get("rpc_parked"), "RPC LOCK parks OLDER's request: " + what);
        if (rpcLock) {
            // the scripted transactions only write: COMMIT frees their locks (RELEASE has nothing left)
            boolean oneSidedUnlock = code.contains("COMMIT");
            assertEquals(oneSidedUnlock ? 0.0 : 1.0, r.extra.get("rpc_granted_on_release"), what);
            assertEquals(oneSidedUnlock ? 1.0 : 0.0, r.extra.get("rpc_granted_by_poll"), what);
        }
    }
}
