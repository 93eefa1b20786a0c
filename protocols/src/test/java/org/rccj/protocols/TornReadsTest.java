package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;

/**
 * With torn one-sided READs injected, the protocols that read a tuple twice (MVCC, SUNDIAL) still verify,
 * tearing really happened, and the double read caught some.
 */
class TornReadsTest {
    /** SmallBank on a hot set still verifies, tearing really happened and the double read ({@code retries}) caught some. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"mvcc, all-onesided, mvcc_read_retries", "mvcc, READ, mvcc_read_retries", "mvcc, READ+LOCK, mvcc_read_retries",
            "sundial, all-onesided, sundial_read_retries", "sundial, READ, sundial_read_retries",
            "sundial, READ+RENEW, sundial_read_retries"})
    void survived(String protocol, String code, String retries) {
        RunResult r = Runs.run(Runs.smallBank("protocol", protocol, "hybrid", code, "faults.torn_reads", true, "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 3.0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("torn_reads") > 0, "no READ was torn");
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
        assertTrue(r.extra.get(retries) > 0, "the double read never disagreed: " + r.extra);
    }

    /**
     * The long-reader workload stores the writer's id in each record, so a read whose record and version id
     * come from different writes breaks its invariant {@code reads_match_versions} (SmallBank's money
     * invariant does not see a mislabelled read-only access).
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"mvcc, all-onesided", "mvcc, READ", "sundial, all-onesided", "sundial, READ"})
    void readsMatchTheirVersions(String protocol, String code) {
        Object[] more = protocol.equals("mvcc")
                ? new Object[] {"workload.first_cell", 1, "protocol_options.version_slots", 2}
                : new Object[] {"workload.first_cell", 1};
        Object[] base = {"hybrid", code, "faults.torn_reads", true, "coroutines", 4, "workload.sleep_us", 0.0};
        Object[] kv = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, kv, base.length, more.length);
        RunResult r = Runs.run(LongReaderWorkload.config(protocol, kv));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("reads_match_versions"));
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
    }
}
