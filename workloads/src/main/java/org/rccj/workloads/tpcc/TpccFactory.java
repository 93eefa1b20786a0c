package org.rccj.workloads.tpcc;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;

/** Registers TPC-C with the framework. */
public final class TpccFactory implements WorkloadFactory {
    static final String WAREHOUSES_PER_THREAD = "warehouses_per_thread", SCALE_DOWN = "scale_down", MIX = "mix",
            REMOTE_ITEM_RATIO = "remote_item_ratio", DISTRIBUTED_RATIO = "distributed_ratio",
            MAX_ORDERS_PER_DISTRICT = "max_orders_per_district", MAX_PAYMENTS_PER_COROUTINE = "max_payments_per_coroutine",
            PLACEMENT = "placement";
    static final List<Param> PARAMS = List.of(
            Param.ofInt(WAREHOUSES_PER_THREAD, 1, 1, 1024,
                    "warehouses per worker thread (total = this x nodes x threads); a thread's coroutines are their terminals"),
            Param.ofInt(SCALE_DOWN, 1, 1, 300,
                    "divides the per-warehouse cardinalities for small runs: customers and initial orders per district 3000/s, items and stock 100000/s"),
            Param.ofChoice(MIX, "standard", List.of("standard", "new-order"),
                    "standard = 45/43/4/4/4 (New-Order, Payment, Order-Status, Delivery, Stock-Level); new-order = 100% New-Order (the RDMA papers' setting)"),
            Param.ofDouble(REMOTE_ITEM_RATIO, 0.01, 0, 1, "share of New-Order lines supplied by another warehouse (spec: 0.01)"),
            Param.ofDouble(DISTRIBUTED_RATIO, 0, 0, 1,
                    "share of New-Orders that also take one line from a warehouse on another node (1 = every New-Order is distributed, as in DrTM+H)"),
            Param.ofInt(MAX_ORDERS_PER_DISTRICT, 0, 0, 100_000_000,
                    "ORDER / NEW-ORDER slots per district (with 15 ORDER-LINE slots each), the loaded ones included; 0 = the loaded 3000/s + 1000"),
            Param.ofInt(MAX_PAYMENTS_PER_COROUTINE, 2000, 1, 100_000_000,
                    "HISTORY slots per coroutine and home warehouse for its Payments (standard mix)"),
            Param.ofChoice(PLACEMENT, "warehouse", List.of("warehouse", "spread"),
                    "warehouse = every row on its warehouse's node (ITEM: a copy per node); spread = every row, ITEM's copies too, on a node drawn from a hash of its key, as the HADES paper spreads records uniformly (decision 0187)"));

    @Override public String name() { return "tpcc"; }
    @Override public String description() { return "TPC-C: nine tables partitioned by warehouse, five transactions, the twelve consistency conditions"; }
    @Override public List<Param> parameters() { return PARAMS; }
    @Override public Workload create(WorkloadSetup setup) { return new Tpcc(setup, true); }

    /** Sized without the loop over every warehouse's customers and orders (5 order lines per order, names spread evenly). */
    @Override public List<org.rccj.framework.store.TableSpec> tablesAtLeast(WorkloadSetup setup) { return new Tpcc(setup, false).tables(); }
}
