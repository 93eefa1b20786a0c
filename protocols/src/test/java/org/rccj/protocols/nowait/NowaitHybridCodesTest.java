package org.rccj.protocols.nowait;

import static org.junit.jupiter.api.Assertions.*;

import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodesSuite;

/** Every one of NOWAIT's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class NowaitHybridCodesTest extends HybridCodesSuite {
    NowaitHybridCodesTest() { super("nowait", NowaitFactory.STAGES, 16, "all-rpc", "all-onesided", "LOCK+COMMIT", "LOG+RELEASE"); }

    @Override
    protected void check(RunResult r, int code) {
        assertTrue(r.aborts() > 0, "the hot set should make some locks conflict");
        assertEquals(r.aborts(), r.abortReasons.getOrDefault("lock_conflict", 0L), "NOWAIT aborts only on lock conflicts: " + r.abortReasons);
        if ((code & 1) == 0) assertEquals(0, r.network.cas, "RPC LOCK posted CASes");
        else assertTrue(r.network.cas > 0, "one-sided LOCK posted no CAS");
    }
}
