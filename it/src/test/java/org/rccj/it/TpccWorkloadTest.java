package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.results.SummaryJson;

/** TPC-C's mix, its 1% rolled-back New-Orders, and the slot areas' limits, as the run reports them. */
class TpccWorkloadTest {
    /** Share of a type among the transactions the run finished (committed or rolled back). */
    static double share(RunResult r, String type) {
        long all = 0;
        for (TxnTypeStats s : r.perType.values()) all += s.commits + s.rolledBack;
        TxnTypeStats s = r.perType.get(type);
        return (double) (s.commits + s.rolledBack) / all;
    }

    @Test
    void standardMixFillsPerTxnTypeInItsShares() throws Exception {
        // fetch_items: together (not the default, artifact, whose one-by-one fetches halve this run's commits: 1025 in
        // 12 ms): the test is about the mix, not the fetch structure, and stays sized as before (decision 0201)
        RunResult r = ItRuns.run(ItRuns.config("occ", "tpcc", "hybrid", "all-onesided", "workload.scale_down", 50,
                "workload.max_orders_per_district", 400, "duration_ms", 12.0, "verify", false, "fetch_items", "together"));
        // 12 ms (was 4, then 9): with loopback atomics (cx4-edr) this mostly-local all-one-sided run commits about half
        // as fast, and since issue 22 (awaited COMMIT, the log-clean message) slower again (1881 commits in 9 ms)
        assertTrue(r.commits() > 2000, "commits " + r.commits());
        assertEquals(0.45, share(r, "NewOrder"), 0.05);
        assertEquals(0.43, share(r, "Payment"), 0.05);
        for (String t : new String[] {"OrderStatus", "Delivery", "StockLevel"}) assertEquals(0.04, share(r, t), 0.015, t);
        JsonNode perType = new ObjectMapper().readTree(SummaryJson.toJson(r)).get("per_txn_type");
        for (String t : TpccCrossTest.TYPES) {
            JsonNode n = perType.get(t);
            assertNotNull(n, t + " missing from per_txn_type");
            assertEquals(r.perType.get(t).commits, n.get("commits").asLong(), t);
            assertTrue(n.get("commits").asLong() > 0, t);
            assertTrue(n.get("throughput_tps").asDouble() > 0, t);
            assertTrue(n.get("latency_us").get("p50").asDouble() > 0, t);
        }
    }

    @Test
    void aboutOnePercentOfNewOrdersRollBack() {
        RunResult r = ItRuns.run(ItRuns.config("occ", "tpcc", "hybrid", "all-onesided", "workload.mix", "new-order",
                "workload.scale_down", 50, "workload.max_orders_per_district", 2400, "duration_ms", 80.0, "verify", false,
                "fetch_items", "together"));
        // fetch_items: together as above (one by one, 13,317 New-Orders in 80 ms; decision 0201)
        // 80 ms (was 25, then 45, then 65; the framework's own costs, decision 0177, left 14,894 New-Orders in 65 ms): with loopback atomics (cx4-edr) this mostly-local all-one-sided run commits about half
        // as fast, and since issue 22 (awaited COMMIT, the log-clean message) slower again (11,508 New-Orders in 45 ms)
        TxnTypeStats no = r.perType.get("NewOrder");
        long finished = no.commits + no.rolledBack;
        assertTrue(finished > 15_000, "New-Orders " + finished);
        double rate = (double) no.rolledBack / finished;
        assertTrue(rate > 0.007 && rate < 0.013, "rolled back " + no.rolledBack + " of " + finished + " = " + rate);
        assertEquals(no.rolledBack, r.rolledBack(), "only New-Order rolls back");
        assertFalse(r.abortReasons.containsKey("logic"), "a rollback is not a concurrency abort: " + r.abortReasons);
    }

    @Test
    void inTheStandardMixOnlyNewOrderRollsBack() {
        RunResult r = ItRuns.run(ItRuns.config("occ", "tpcc", "workload.scale_down", 50,
                "workload.max_orders_per_district", 1200, "duration_ms", 12.0, "verify", false));
        for (String t : new String[] {"Payment", "OrderStatus", "Delivery", "StockLevel"}) {
            assertEquals(0, r.perType.get(t).rolledBack, t);
            assertTrue(r.perType.get(t).commits > 0, t);
        }
        assertTrue(r.perType.get("NewOrder").rolledBack > 0, "no New-Order rolled back of " + r.perType.get("NewOrder").commits);
        assertEquals(r.perType.get("NewOrder").rolledBack, r.rolledBack());
    }

    @Test
    void orderSlotsRunningOutStopTheRunNamingTheKey() {
        var cfg = ItRuns.config("occ", "tpcc", "workload.mix", "new-order", "workload.scale_down", 50,
                "workload.max_orders_per_district", 61);
        ConfigException e = assertThrows(ConfigException.class, () -> ItRuns.run(cfg));
        assertTrue(e.getMessage().startsWith("workload.max_orders_per_district: district"), e.getMessage());
    }

    @Test
    void historySlotsRunningOutStopTheRunNamingTheKey() {
        var cfg = ItRuns.config("occ", "tpcc", "workload.scale_down", 50, "workload.max_orders_per_district", 300,
                "workload.max_payments_per_coroutine", 2);
        ConfigException e = assertThrows(ConfigException.class, () -> ItRuns.run(cfg));
        assertTrue(e.getMessage().startsWith("workload.max_payments_per_coroutine: coroutine"), e.getMessage());
    }

    @Test
    void tooFewOrderSlotsForTheLoadIsBadInput() {
        var cfg = ItRuns.config("occ", "tpcc", "workload.scale_down", 50, "workload.max_orders_per_district", 60);
        ConfigException e = assertThrows(ConfigException.class, () -> ItRuns.run(cfg));
        assertTrue(e.getMessage().startsWith("workload.max_orders_per_district: 60"), e.getMessage());
    }
}
