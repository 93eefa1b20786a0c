package org.rccj.workloads.tpcc;

import static org.junit.jupiter.api.Assertions.*;
import static org.rccj.workloads.tpcc.Schema.*;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.store.Table;
import org.rccj.it.ItRuns;

/**
 * {@code placement}: {@code warehouse} keeps every row of a warehouse on its node; {@code spread} (the HADES
 * paper's TPC-C, decision 0187) places rows by a hash of their key, so one warehouse's stock rows land on every
 * node in about equal shares, and the run still meets the consistency conditions.
 */
class TpccPlacementTest {
    @ParameterizedTest(name = "placement {0}")
    @ValueSource(strings = {"warehouse", "spread"})
    void rowsLiveWherePlacementSays(String placement) {
        Config cfg = ConfigResolver.resolve(ItRuns.config("occ", "tpcc", "hybrid", "all-rpc", "workload.mix", "new-order",
                "workload.scale_down", 50, "workload.max_orders_per_district", 300, "workload.placement", placement,
                "duration_ms", 0.5));
        Keys k = TpccRuns.keys(cfg);
        int nodes = cfg.shape().nodes();
        long[] onNode = new long[nodes];
        long[] homeRows = new long[1];
        RunResult r = TpccRuns.run(cfg, (s, keys) -> {
            Table stock = s.table(STOCK);
            for (int i = 1; i <= keys.items; i++) onNode[stock.nodeOf(keys.stock(0, i), nodes)]++;
            for (int w = 0; w < keys.warehouses; w++) {
                if (s.table(DISTRICT).nodeOf(keys.district(w, 0), nodes) == keys.nodeOfWarehouse(w)) homeRows[0]++;
            }
        });
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.commits() > 20, "commits " + r.commits());
        if (placement.equals("warehouse")) {
            assertEquals(k.items, onNode[0], "warehouse 0's stock all on node 0");
            assertEquals(k.warehouses, homeRows[0], "every district 0 on its warehouse's node");
        } else {
            for (int n = 0; n < nodes; n++) {
                assertTrue(onNode[n] > k.items / nodes / 2, "node " + n + " holds " + onNode[n] + " of warehouse 0's " + k.items + " stock rows");
            }
        }
    }
}
