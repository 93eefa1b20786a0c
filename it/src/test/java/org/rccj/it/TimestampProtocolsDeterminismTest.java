package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** MVCC and SUNDIAL on sim: the same config and seed give identical summary.json (timestamps come from virtual time). */
class TimestampProtocolsDeterminismTest {
    @ParameterizedTest
    @CsvSource({"mvcc, all-rpc", "mvcc, all-onesided", "sundial, all-rpc", "sundial, all-onesided"})
    void sameSeedSameSummary(String protocol, String code) {
        var cfg = ItRuns.config(protocol, "smallbank", "hybrid", code, "workload.accounts_per_thread", 50);
        String a = ItRuns.deterministicSummary(ItRuns.run(cfg));
        String b = ItRuns.deterministicSummary(ItRuns.run(cfg));
        assertEquals(a, b);
        var other = ItRuns.config(protocol, "smallbank", "hybrid", code, "workload.accounts_per_thread", 50, "seed", 2);
        assertNotEquals(a, ItRuns.deterministicSummary(ItRuns.run(other)), "the seed must matter");
    }
}
