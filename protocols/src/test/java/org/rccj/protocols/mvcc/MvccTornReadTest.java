package org.rccj.protocols.mvcc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
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
}
