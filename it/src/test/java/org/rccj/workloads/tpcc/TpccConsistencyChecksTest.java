package org.rccj.workloads.tpcc;

import static org.junit.jupiter.api.Assertions.*;
import static org.rccj.workloads.tpcc.ConsistencyCheck.*;
import static org.rccj.workloads.tpcc.Schema.*;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.store.Store;
import org.rccj.it.ItRuns;

/**
 * Each consistency check catches what it is about: after a verified OCC run the store is corrupted on purpose
 * (one kind of damage per run) and exactly the checks that damage violates must fail, the others hold.
 * (In this package, inside the it module, to reach the workload's key and record layouts.)
 */
class TpccConsistencyChecksTest {
    interface Corruption { void apply(Store s, Keys k); }

    static final Map<String, Object> CONFIG = ItRuns.config("occ", "tpcc", "hybrid", "all-onesided", "workload.scale_down", 50,
            "workload.max_orders_per_district", 300, "duration_ms", 0.8);

    static long get(Store s, String table, long key, int field) { return s.field(s.table(table), key, field); }

    static void set(Store s, String table, long key, int field, long v) { s.setField(s.table(table), key, field, v); }

    static void add(Store s, String table, long key, int field, long delta) { set(s, table, key, field, get(s, table, key, field) + delta); }

    /** (w, d) of the first district with at least {@code n} undelivered orders. */
    static int[] districtWithNewOrders(Store s, Keys k, int n) {
        for (int w = 0; w < k.warehouses; w++) {
            for (int d = 0; d < DISTRICTS_PER_WAREHOUSE; d++) {
                long head = get(s, NEW_ORDER_HEAD, k.district(w, d), NewOrderHead.O_ID);
                long next = get(s, DISTRICT, k.district(w, d), District.NEXT_O_ID);
                if (next - head >= n) return new int[] {w, d};
            }
        }
        throw new AssertionError("no district with " + n + " undelivered orders");
    }

    static long head(Store s, Keys k, int[] wd) { return get(s, NEW_ORDER_HEAD, k.district(wd[0], wd[1]), NewOrderHead.O_ID); }

    static Arguments c(String name, Set<String> fails, Corruption c) { return Arguments.of(name, fails, c); }

    static Stream<Arguments> cases() {
        return Stream.of(
                c("none", Set.of(), (s, k) -> {}),
                c("w_ytd+1", Set.of(C1, C8), (s, k) -> add(s, WAREHOUSE, k.warehouse(0), Warehouse.YTD, 1)),
                c("d_next_o_id+1", Set.of(C2), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 1);
                    add(s, DISTRICT, k.district(wd[0], wd[1]), District.NEXT_O_ID, 1);
                }),
                c("middle new_order row deleted", Set.of(C3, C5, C11), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 3);
                    set(s, NEW_ORDER, k.order(wd[0], wd[1], head(s, k, wd) + 1), NewOrder.VALID, 0);
                }),
                c("order_line of undelivered order deleted", Set.of(C4, C6), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 1);
                    long o = head(s, k, wd);
                    int n = (int) get(s, ORDER, k.order(wd[0], wd[1], o), Order.OL_CNT);
                    set(s, ORDER_LINE, k.orderLine(wd[0], wd[1], o, n), OrderLine.VALID, 0);
                }),
                c("carrier set on undelivered order", Set.of(C5, C7), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 1);
                    set(s, ORDER, k.order(wd[0], wd[1], head(s, k, wd)), Order.CARRIER_ID, 3);
                }),
                c("o_ol_cnt+1", Set.of(C4, C6), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 1);
                    add(s, ORDER, k.order(wd[0], wd[1], head(s, k, wd)), Order.OL_CNT, 1);
                }),
                c("delivery date on undelivered line", Set.of(C7, C10, C12), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 1);
                    long line = k.orderLine(wd[0], wd[1], head(s, k, wd), 1);
                    assertTrue(get(s, ORDER_LINE, line, OrderLine.AMOUNT) > 0, "an undelivered line has an amount");
                    set(s, ORDER_LINE, line, OrderLine.DELIVERY_D, 5);
                }),
                c("h_amount+1", Set.of(C8, C9, C10), (s, k) -> add(s, HISTORY, k.initialHistory(0, 0, 1), History.AMOUNT, 1)),
                c("d_ytd moved between districts", Set.of(C9), (s, k) -> {
                    add(s, DISTRICT, k.district(0, 0), District.YTD, 1);
                    add(s, DISTRICT, k.district(0, 1), District.YTD, -1);
                }),
                c("c_balance+1", Set.of(C10, C12), (s, k) -> add(s, CUSTOMER, k.customer(0, 0, 1), Customer.BALANCE, 1)),
                c("oldest new_order row deleted", Set.of(C5, C11, NEW_ORDER_HEAD_INDEX), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 2);
                    set(s, NEW_ORDER, k.order(wd[0], wd[1], head(s, k, wd)), NewOrder.VALID, 0);
                }),
                c("c_ytd_payment+1", Set.of(C12), (s, k) -> add(s, CUSTOMER, k.customer(0, 0, 1), Customer.YTD_PAYMENT, 1)),
                c("customer_last_order+1", Set.of(LAST_ORDER_INDEX), (s, k) -> add(s, CUSTOMER_LAST_ORDER, k.customer(0, 0, 1), CustomerLastOrder.O_ID, 1)),
                c("new_order_head+1", Set.of(NEW_ORDER_HEAD_INDEX), (s, k) -> {
                    int[] wd = districtWithNewOrders(s, k, 1);
                    add(s, NEW_ORDER_HEAD, k.district(wd[0], wd[1]), NewOrderHead.O_ID, 1);
                }));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void corruptionFailsExactlyItsChecks(String name, Set<String> expectedFailures, Corruption corruption) {
        Config cfg = ConfigResolver.resolve(CONFIG);
        RunResult r = TpccRuns.run(cfg, corruption::apply);
        assertTrue(r.commits() > 100, "too few commits " + r.commits());
        assertTrue(r.verification.serializable(), r.verification.anomalies().toString());
        Set<String> failed = new TreeSet<>();
        r.verification.invariants().forEach((k, ok) -> { if (!ok) failed.add(k); });
        assertEquals(14, r.verification.invariants().size());
        assertEquals(new TreeSet<>(expectedFailures), failed, name);
    }
}
