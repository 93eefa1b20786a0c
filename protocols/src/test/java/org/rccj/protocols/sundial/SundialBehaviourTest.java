package org.rccj.protocols.sundial;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.LongReaderWorkload;
import org.rccj.protocols.Runs;

/**
 * SUNDIAL's defining behaviour on a scripted conflict (workload long-reader): a reader whose second read
 * sees a version newer than its first read's lease commits by renewing that lease instead of aborting —
 * and the run stays serializable. When the first cell is overwritten meanwhile, the renewal fails.
 */
class SundialBehaviourTest {
    private static RunResult slowReader(String protocol, String code, int firstCell) {
        return Runs.run(LongReaderWorkload.config(protocol, "hybrid", code, "workload.sleep_us", 20.0, "workload.first_cell", firstCell));
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided", "READ+LOCK+COMMIT", "RENEW+LOG+RELEASE"})
    void expiredLeaseOfAnUnchangedTupleIsRenewed(String code) {
        RunResult r = slowReader("sundial", code, 0);
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("sundial_renewals_ok") > 0, "no lease was renewed: " + r.extra);
        assertTrue(r.perType.get("LongRead").commits > 0, "the slow reader never committed");
        assertEquals(0, r.perType.get("LongRead").aborts, "the reader of an unchanged cell aborted: " + r.abortReasons);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void leaseOfAnOverwrittenTupleCannotBeRenewed(String code) {
        RunResult r = slowReader("sundial", code, 1);
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("sundial_renewals_failed") > 0, "no renewal failed: " + r.extra);
        assertTrue(r.abortReasons.getOrDefault("renew_version_changed", 0L) + r.abortReasons.getOrDefault("renew_locked", 0L) > 0);
        assertTrue(r.perType.get("Move").commits > 0);
    }

    /** The script above is sharp: the same run without renewal is caught by the checker. */
    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void withoutRenewalTheCheckerFindsACycle(String code) {
        RunResult r = slowReader("sundial-norenew", code, 1);
        assertTrue(r.verification.checked());
        assertFalse(r.verification.serializable(), code + ": skipping renewal went unnoticed");
        assertTrue(r.verification.anomalies().stream().anyMatch(a -> a.startsWith("cycle")), r.verification.anomalies().toString());
    }

    @Test
    void simRunsAreDeterministic() { Runs.assertDeterministic(Runs.smallBank("protocol", "sundial", "workload.hot_probability", 0.9)); }
}
