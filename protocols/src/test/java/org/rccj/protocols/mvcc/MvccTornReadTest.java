package org.rccj.protocols.mvcc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.LongReaderWorkload;
import org.rccj.protocols.Runs;

/** With torn one-sided READs injected, MVCC still verifies, tearing really happened, and the double read caught some. */
class MvccTornReadTest {
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ", "READ+LOCK"})
    void mvccSurvivesTornReads(String code) {
        RunResult r = Runs.run(Runs.smallBank("protocol", "mvcc", "hybrid", code, "faults.torn_reads", true, "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 3.0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("torn_reads") > 0, "no READ was torn");
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
        assertTrue(r.extra.get("mvcc_read_retries") > 0, "the double read never disagreed: " + r.extra);
    }

    /**
     * The long-reader workload stores the writer's id in each record, so a read whose record and version id
     * come from different writes breaks its invariant {@code reads_match_versions} (SmallBank's money
     * invariant does not see a mislabelled read-only access).
     */
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ"})
    void readsMatchTheirVersionsUnderTornReads(String code) {
        RunResult r = Runs.run(LongReaderWorkload.config("mvcc", "hybrid", code, "faults.torn_reads", true, "coroutines", 4,
                "workload.sleep_us", 0.0, "workload.first_cell", 1, "protocol_options.version_slots", 2));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("reads_match_versions"));
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
    }
}
