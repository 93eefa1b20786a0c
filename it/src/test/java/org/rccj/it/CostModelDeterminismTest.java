package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cost model's effects keep sim deterministic: loopback atomics with the incoherent-atomics fault, QP-cache
 * misses (20 nodes x 16 workers = 304 QPs per NIC, past cx4-edr's 256) and the cx6-hdr profile give identical
 * summary.json for the same config and seed.
 */
class CostModelDeterminismTest {
    @ParameterizedTest
    @ValueSource(strings = {"fault", "qp-misses", "cx6-hdr"})
    void sameSeedSameSummary(String what) {
        Object[] kv = switch (what) {
            case "fault" -> new Object[] {"hybrid", "LOCK+READ", "faults.incoherent_atomics", true, "workload.accounts_per_thread", 50};
            case "qp-misses" -> new Object[] {"hybrid", "all-onesided", "nodes", 20, "threads", 16, "coroutines", 2,
                    "warmup_ms", 0.1, "duration_ms", 0.3, "workload.accounts_per_thread", 50};
            default -> new Object[] {"hybrid", "READ+COMMIT", "profile", "cx6-hdr", "workload.accounts_per_thread", 50};
        };
        var cfg = ItRuns.config("occ", "smallbank", kv);
        String a = ItRuns.deterministicSummary(ItRuns.run(cfg));
        String b = ItRuns.deterministicSummary(ItRuns.run(cfg));
        assertEquals(a, b);
    }
}
