package org.rccj.protocols.waitdie;

import static org.junit.jupiter.api.Assertions.*;

import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodesSuite;

/** Every one of WAITDIE's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class WaitDieHybridCodesTest extends HybridCodesSuite {
    WaitDieHybridCodesTest() { super("waitdie", WaitDieFactory.STAGES, 16, "all-rpc", "all-onesided", "LOCK+COMMIT", "LOG+RELEASE"); }

    @Override
    protected void check(RunResult r, int code) {
        // conflicts on the hot set: some transactions waited and some died
        assertTrue(r.extra.get("waits") > 0, "nobody waited: " + r.extra);
        assertTrue(r.extra.get("dies") > 0, "nobody died: " + r.extra);
        // a death aborts its attempt (several lock requests of one attempt may die together)
        long died = r.abortReasons.getOrDefault("wait_die", 0L);
        assertTrue(died > 0 && died <= r.extra.get("dies"), r.abortReasons + " vs " + r.extra);
        assertEquals(r.aborts(), died + r.abortReasons.getOrDefault("yield_to_older_waiter", 0L)
                + r.abortReasons.getOrDefault("wait_at_run_end", 0L), "unexpected abort reasons " + r.abortReasons);
        if ((code & 1) == 0) {
            assertTrue(r.extra.get("rpc_parked") > 0, "RPC LOCK never parked a request: " + r.extra);
            // locks are freed by COMMIT (writes) and RELEASE (reads, aborts): an RPC unlock hands a parked request
            // the lock, a one-sided one leaves it to the poller
            int unlocks = code & (8 | 16);
            if (unlocks == 0) {
                assertTrue(r.extra.get("rpc_granted_on_release") > 0, "RPC unlocks never handed a lock on: " + r.extra);
                assertEquals(0.0, r.extra.get("rpc_granted_by_poll"), "no poller runs with RPC unlocks");
            } else if (unlocks == (8 | 16)) {
                assertTrue(r.extra.get("rpc_granted_by_poll") > 0, "one-sided unlocks: the poller never granted: " + r.extra);
                assertEquals(0.0, r.extra.get("rpc_granted_on_release"), "a one-sided unlock ran a handler");
            } else {
                assertTrue(r.extra.get("rpc_granted_by_poll") + r.extra.get("rpc_granted_on_release") > 0, r.extra.toString());
            }
        } else {
            assertEquals(0.0, r.extra.get("rpc_parked"), "one-sided LOCK parked RPC requests");
        }
    }
}
