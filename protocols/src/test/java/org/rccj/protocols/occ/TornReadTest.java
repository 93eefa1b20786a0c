package org.rccj.protocols.occ;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/** With torn one-sided READs injected, OCC still verifies, and tearing really happened. */
class TornReadTest {
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ+VALIDATE", "READ"})
    void occSurvivesTornReads(String code) {
        RunResult r = Runs.run(Runs.smallBank("hybrid", code, "faults.torn_reads", true, "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 3.0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("torn_reads") > 0, "no READ was torn");
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
    }
}
