package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** sim runs with the same config and seed give identical summary.json apart from the environment block. */
class SmallBankDeterminismTest {
    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided", "READ+LOG+COMMIT"})
    void sameSeedSameSummary(String code) {
        var cfg = ItRuns.config("occ", "smallbank", "hybrid", code, "workload.accounts_per_thread", 50);
        String a = ItRuns.deterministicSummary(ItRuns.run(cfg));
        String b = ItRuns.deterministicSummary(ItRuns.run(cfg));
        assertEquals(a, b);
        var other = ItRuns.config("occ", "smallbank", "hybrid", code, "workload.accounts_per_thread", 50, "seed", 2);
        assertNotEquals(a, ItRuns.deterministicSummary(ItRuns.run(other)), "the seed must matter");
    }
}
