package org.rccj.workloads.tpcc;

import static org.junit.jupiter.api.Assertions.*;
import static org.rccj.workloads.tpcc.Schema.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.RunResult;
import org.rccj.it.ItRuns;

/**
 * At the smallest scale (10 customers per district, 3 of them with undelivered orders) Delivery empties
 * districts' NEW-ORDER and must then skip them (clause 2.7.4.2); the run stays serializable and consistent.
 */
class TpccEmptyDistrictTest {
    @Test
    void deliveryDrainsDistrictsAndSkipsThem() {
        Config cfg = ConfigResolver.resolve(ItRuns.config("occ", "tpcc", "hybrid", "all-onesided", "workload.scale_down", 300,
                "workload.max_orders_per_district", 300, "duration_ms", 10.0));
        Keys k = TpccRuns.keys(cfg);
        assertEquals(10, k.customers);
        int[] empty = {0};
        RunResult r = TpccRuns.runVisitingDistricts(cfg, (s, w, d) -> {
            long head = s.field(s.table(NEW_ORDER_HEAD), k.district(w, d), NewOrderHead.O_ID);
            long next = s.field(s.table(DISTRICT), k.district(w, d), District.NEXT_O_ID);
            if (head == next) empty[0]++;
        });
        assertTrue(r.verification.passed(), r.verification.anomalies() + " " + r.verification.invariants());
        assertTrue(r.perType.get("Delivery").commits > 20, "Deliveries " + r.perType.get("Delivery").commits);
        assertTrue(empty[0] > 0, "no district ran out of undelivered orders");
    }
}
