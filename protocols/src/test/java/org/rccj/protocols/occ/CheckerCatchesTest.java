package org.rccj.protocols.occ;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunHooks;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.store.Table;
import org.rccj.protocols.Runs;

/** Verification can fail: a broken protocol is caught by the checker, a corrupted balance by the invariant. */
class CheckerCatchesTest {
    @Test
    void occWithoutValidationIsNotSerializable() {
        for (String code : new String[] {"all-rpc", "all-onesided"}) {
            RunResult r = Runs.run(Runs.smallBank("protocol", "occ-novalidate", "hybrid", code, "coroutines", 8,
                    "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 10.0));
            assertTrue(r.verification.checked());
            assertFalse(r.verification.serializable(), code + ": skipping validation went unnoticed");
            assertFalse(r.verification.passed());
            assertTrue(r.verification.anomalies().stream().anyMatch(a -> a.startsWith("cycle")), r.verification.anomalies().toString());
        }
    }

    @Test
    void sameRunWithValidationIsSerializable() {
        RunResult r = Runs.run(Runs.smallBank("protocol", "occ", "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 2.0));
        assertTrue(r.verification.passed(), r.verification.toString());
    }

    @Test
    void corruptedBalanceFailsTheInvariant() {
        RunHooks stealOneCent = new RunHooks() {
            @Override public void afterRun(Cluster c) {
                Table checking = c.store.table("checking");
                c.store.setField(checking, 7, 0, c.store.field(checking, 7, 0) - 1);
            }
        };
        RunResult r = Runs.run(Runs.smallBank(), stealOneCent);
        assertTrue(r.verification.serializable());
        assertEquals(Boolean.FALSE, r.verification.invariants().get("total_money"));
        assertFalse(r.verification.passed());
    }
}
