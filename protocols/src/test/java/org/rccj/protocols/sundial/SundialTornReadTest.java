package org.rccj.protocols.sundial;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.LongReaderWorkload;
import org.rccj.protocols.Runs;

/** With torn one-sided READs injected, SUNDIAL still verifies, tearing really happened, and the double read caught some. */
class SundialTornReadTest {
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ", "READ+RENEW"})
    void sundialSurvivesTornReads(String code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "sundial", "hybrid", code, "faults.torn_reads", true, "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 3.0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("torn_reads") > 0, "no READ was torn");
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
        assertTrue(r.extra.get("sundial_read_retries") > 0, "the double read never disagreed: " + r.extra);
    }

    /**
     * The long-reader workload stores the writer's id in each record, so a read whose record and version id
     * come from different writes breaks its invariant {@code reads_match_versions} (SmallBank's money
     * invariant does not see a mislabelled read-only access).
     */
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ"})
    void readsMatchTheirVersionsUnderTornReads(String code) {
        RunResult r = Runs.run(LongReaderWorkload.config("sundial", "hybrid", code, "faults.torn_reads", true, "coroutines", 4,
                "workload.sleep_us", 0.0, "workload.first_cell", 0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("reads_match_versions"));
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
    }
}
