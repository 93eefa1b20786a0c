package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import org.rccj.framework.run.RunResult;
import org.rccj.protocols.HybridCodesSuite;

/** Every one of DrTM's 16 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class DrtmHybridCodesTest extends HybridCodesSuite {
    DrtmHybridCodesTest() { super("drtm", DrtmFactory.STAGES, 16, "all-rpc", "all-onesided", "LOCK+COMMIT", "READ+LOG"); }

    /** Every path of the protocol was exercised. */
    static void checkPaths(RunResult r, String what) {
        assertTrue(r.extra.get("htm_commits") > 0, what + ": no transaction committed through the HTM region " + r.extra);
        assertTrue(r.extra.get("read_leases_granted") > 0, what + ": no read lease granted " + r.extra);
        assertTrue(r.extra.get("read_only_commits") > 0, what + ": no read-only commit " + r.extra);
    }

    @Override protected void check(RunResult r, int code) { checkPaths(r, "sim code " + code); }

    @Override protected void checkLocal(RunResult r, String code) { checkPaths(r, "local " + code); }
}
