package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** TPC-C on sim: the same config and seed give the same summary.json (load and run are deterministic). */
class TpccDeterminismTest {
    @Test
    void sameSeedSameSummary() {
        var cfg = ItRuns.config("occ", "tpcc", "hybrid", "READ+LOG+COMMIT", "workload.scale_down", 50,
                "workload.max_orders_per_district", 300, "duration_ms", 0.5);
        String a = ItRuns.deterministicSummary(ItRuns.run(cfg));
        assertEquals(a, ItRuns.deterministicSummary(ItRuns.run(cfg)));
        var other = ItRuns.config("occ", "tpcc", "hybrid", "READ+LOG+COMMIT", "workload.scale_down", 50,
                "workload.max_orders_per_district", 300, "duration_ms", 0.5, "seed", 2);
        assertNotEquals(a, ItRuns.deterministicSummary(ItRuns.run(other)), "the seed must matter");
    }
}
