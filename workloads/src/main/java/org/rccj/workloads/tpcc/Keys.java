package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.DISTRICTS_PER_WAREHOUSE;
import static org.rccj.workloads.tpcc.Schema.LAST_NAMES;
import static org.rccj.workloads.tpcc.Schema.MAX_ORDER_LINES;

import org.rccj.framework.store.Hashing;
import org.rccj.framework.store.Partitioner;

/**
 * Keys of every table and where they live. Every key except ITEM's starts with its warehouse, as
 * {@code w * keysPerWarehouse + local part}, so a partitioner places all of a warehouse's rows (its
 * districts, customers, history, orders, stock) on the warehouse's node: warehouses are numbered node by
 * node, thread by thread ({@code warehouses_per_thread} consecutive numbers per worker thread).
 * ITEM is keyed {@code node * (items + 1) + i - 1}: one read-only copy per node. With {@code placement: spread}
 * (the HADES paper's TPC-C, decision 0187) every row is placed by a hash of its key instead (the ITEM copy a node
 * reads then lives on a node drawn like any other row's).
 */
final class Keys {
    final int warehouses, warehousesPerNode, warehousesPerThread, nodes, threads;
    /** Per district: customers (= initial orders), order slots; per warehouse: items (= stock rows). */
    final int customers, maxOrders, items;
    /** C_LAST codes in use: min(1000, customers) (every code below it has a customer). */
    final int lastNames;
    /** Coroutines per worker and HISTORY slots each has per home warehouse for its Payments. */
    final int coroutines, paymentsPerCoroutine;
    /** {@code placement: spread}: every row on a node drawn from a hash of its key (decision 0187). */
    boolean spread;
    final long historyPerWarehouse;

    Keys(int nodes, int threads, int warehousesPerThread, int coroutines, int customers, int items, int maxOrders,
         int paymentsPerCoroutine) {
        this.nodes = nodes;
        this.threads = threads;
        this.warehousesPerThread = warehousesPerThread;
        this.warehousesPerNode = warehousesPerThread * threads;
        this.warehouses = warehousesPerNode * nodes;
        this.coroutines = coroutines;
        this.customers = customers;
        this.items = items;
        this.maxOrders = maxOrders;
        this.lastNames = Math.min(LAST_NAMES, customers);
        this.paymentsPerCoroutine = paymentsPerCoroutine;
        this.historyPerWarehouse = (long) DISTRICTS_PER_WAREHOUSE * customers + (long) coroutines * paymentsPerCoroutine;
    }

    int nodeOfWarehouse(int w) { return w / warehousesPerNode; }

    /** The first of the warehouses a worker thread is home to. */
    int firstWarehouseOf(int node, int thread) { return node * warehousesPerNode + thread * warehousesPerThread; }

    /** A partitioner for a table whose keys start with the warehouse and span {@code keysPerWarehouse}. */
    Partitioner byWarehouse(long keysPerWarehouse) {
        if (spread) return (key, n) -> (int) Long.remainderUnsigned(Hashing.mix(key, SPREAD_SALT), n);
        long perNode = keysPerWarehouse * warehousesPerNode;
        return (key, n) -> (int) (key / perNode);
    }

    static final long SPREAD_SALT = 0x5B2EADL;

    Partitioner itemCopies() {
        if (spread) return (key, n) -> (int) Long.remainderUnsigned(Hashing.mix(key, SPREAD_SALT), n);
        long perNode = items + 1L;
        return (key, n) -> (int) (key / perNode);
    }

    // keys per warehouse of each table
    static final long WAREHOUSE_KEYS = 1, DISTRICT_KEYS = DISTRICTS_PER_WAREHOUSE;
    long customerKeys() { return (long) DISTRICTS_PER_WAREHOUSE * customers; }
    long lastNameKeys() { return (long) DISTRICTS_PER_WAREHOUSE * LAST_NAMES; }
    long orderKeys() { return (long) DISTRICTS_PER_WAREHOUSE * maxOrders; }
    long orderLineKeys() { return orderKeys() * MAX_ORDER_LINES; }
    long stockKeys() { return items; }

    long warehouse(int w) { return w; }

    /** Also NEW_ORDER_HEAD's key. */
    long district(int w, int d) { return (long) w * DISTRICTS_PER_WAREHOUSE + d; }

    /** Also CUSTOMER_LAST_ORDER's key. */
    long customer(int w, int d, long c) { return district(w, d) * customers + (c - 1); }

    long lastName(int w, int d, int code) { return district(w, d) * LAST_NAMES + code; }

    /** ORDER and NEW_ORDER key of order {@code o} (1 .. maxOrders). */
    long order(int w, int d, long o) { return district(w, d) * maxOrders + (o - 1); }

    long orderLine(int w, int d, long o, int olNumber) { return order(w, d, o) * MAX_ORDER_LINES + (olNumber - 1); }

    long stock(int w, long i) { return (long) w * items + (i - 1); }

    /** Node {@code node}'s copy of item {@code i} (1 .. items + 1; items + 1 is the unused id). */
    long item(int node, long i) { return (long) node * (items + 1) + (i - 1); }

    /** HISTORY slot of the load's row for customer (d, c) of warehouse w. */
    long initialHistory(int w, int d, int c) { return w * historyPerWarehouse + (long) d * customers + (c - 1); }

    /** HISTORY slot {@code seq} of coroutine {@code coroutine} (index on its worker) paying at home warehouse w. */
    long paymentHistory(int w, int coroutine, long seq) {
        return w * historyPerWarehouse + (long) DISTRICTS_PER_WAREHOUSE * customers + (long) coroutine * paymentsPerCoroutine + seq;
    }

    // decoding (consistency checks)
    /** District index (w * 10 + d) of an ORDER / NEW_ORDER key. */
    long districtOfOrder(long orderKey) { return orderKey / maxOrders; }
}
