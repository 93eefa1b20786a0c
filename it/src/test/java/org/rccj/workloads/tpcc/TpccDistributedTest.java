package org.rccj.workloads.tpcc;

import static org.junit.jupiter.api.Assertions.*;
import static org.rccj.workloads.tpcc.Schema.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.RunResult;
import org.rccj.it.ItRuns;

/**
 * {@code distributed_ratio = 1} (DrTM+H's setting) makes every New-Order take a line from a warehouse on
 * another node; with 0 and no remote lines every order stays home. Read from the orders the run inserted.
 */
class TpccDistributedTest {
    @ParameterizedTest(name = "distributed_ratio {0}")
    @ValueSource(doubles = {0.0, 1.0})
    void everyNewOrderIsDistributedExactlyWhenAsked(double ratio) {
        Config cfg = ConfigResolver.resolve(ItRuns.config("occ", "tpcc", "hybrid", "all-rpc", "workload.mix", "new-order",
                "workload.scale_down", 50, "workload.max_orders_per_district", 300, "workload.remote_item_ratio", 0.0,
                "workload.distributed_ratio", ratio, "duration_ms", 0.5));
        Keys k = TpccRuns.keys(cfg);
        long[] counts = new long[3];      // new orders, of which distributed, of which marked not all-local
        RunResult r = TpccRuns.runVisitingDistricts(cfg, (s, w, d) -> {
            long next = s.field(s.table(DISTRICT), k.district(w, d), District.NEXT_O_ID);
            for (long o = k.customers + 1; o < next; o++) {
                counts[0]++;
                long olCnt = s.field(s.table(ORDER), k.order(w, d, o), Order.OL_CNT);
                boolean otherNode = false;
                for (int ol = 1; ol <= olCnt; ol++) {
                    int supply = (int) s.field(s.table(ORDER_LINE), k.orderLine(w, d, o, ol), OrderLine.SUPPLY_W_ID);
                    if (k.nodeOfWarehouse(supply) != k.nodeOfWarehouse(w)) otherNode = true;
                }
                if (otherNode) counts[1]++;
                if (s.field(s.table(ORDER), k.order(w, d, o), Order.ALL_LOCAL) == 0) counts[2]++;
            }
        });
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(counts[0] > 100, "new orders " + counts[0]);
        long expected = ratio == 1.0 ? counts[0] : 0;
        assertEquals(expected, counts[1], "orders with a line from another node");
        assertEquals(expected, counts[2], "orders with O_ALL_LOCAL = 0");
    }
}
