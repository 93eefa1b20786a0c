package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Settings;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Hashing;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.TxnGenerator;

/**
 * TPC-C (clauses 1-3 of the specification, without terminals, think times and output screens): nine tables
 * with the specification's cardinalities per warehouse, partitioned by warehouse, and the five transactions
 * with their logic. See {@link Schema} for the records and what was dropped, {@link Keys} for placement,
 * {@link TpccLoader} for the initial population and {@link ConsistencyCheck} for the invariants (the
 * specification's twelve consistency conditions).
 */
public final class Tpcc implements Workload {
    static final List<String> TYPES = List.of("NewOrder", "Payment", "OrderStatus", "Delivery", "StockLevel");
    static final int NEW_ORDER_TX = 0, PAYMENT_TX = 1, ORDER_STATUS_TX = 2, DELIVERY_TX = 3, STOCK_LEVEL_TX = 4;
    /** Cumulative mix weights in percent, in TYPES order (clause 5.2.3 minimum shares, New-Order the rest). */
    static final int[] STANDARD_MIX = {45, 88, 92, 96, 100};
    static final int[] NEW_ORDER_MIX = {100, 100, 100, 100, 100};

    /** Spec constants (clauses 2.5.1.2, 2.4.1.5, 4.3.3.1), money in cents. */
    static final int REMOTE_PAYMENT_PERCENT = 15, BY_LAST_NAME_PERCENT = 60;
    static final long INITIAL_W_YTD_PER_CUSTOMER = 1000 * DISTRICTS_PER_WAREHOUSE, INITIAL_D_YTD_PER_CUSTOMER = 1000;
    static final long INITIAL_BALANCE = -1000, INITIAL_YTD_PAYMENT = 1000, INITIAL_HISTORY_AMOUNT = 1000;
    static final long CREDIT_LIMIT = 5_000_000;
    /** O_ENTRY_D / OL_DELIVERY_D of the loaded rows. */
    static final long LOAD_DATE = 1;

    final Keys keys;
    final NuRand nu;
    final long seed;
    final int scaleDown;
    /** Initial orders per district that are undelivered (in NEW-ORDER): 900 at full scale. */
    final int initialNewOrders;
    final int[] mix;
    final boolean standardMix;
    final double remoteItemRatio, distributedRatio;
    /** Longest customer list of one (w, d, C_LAST) in the by-last-name index. */
    final int maxIdsPerLastName;
    final long orderLineRows;
    Table warehouse, district, newOrderHead, customer, customerByLastName, customerLastOrder, history, newOrder,
            order, orderLine, item, stock;
    final List<TpccGenerator> generators = new ArrayList<>();

    /** Smallest O_OL_CNT of a loaded order ({@link #initialOlCnt}). */
    static final int MIN_OL_CNT = 5;

    Tpcc(WorkloadSetup s) { this(s, true); }

    /** @param exact size the tables exactly (a loop over every district's customers and orders), else a lower bound */
    Tpcc(WorkloadSetup s, boolean exact) {
        ClusterShape c = s.cluster();
        seed = c.seed();
        scaleDown = s.i(TpccFactory.SCALE_DOWN);
        int customers = NuRand.SPEC_CUSTOMERS / scaleDown, items = NuRand.SPEC_ITEMS / scaleDown;
        initialNewOrders = customers * 3 / 10;
        int maxOrders = s.i(TpccFactory.MAX_ORDERS_PER_DISTRICT);
        if (maxOrders == 0) maxOrders = customers + 1000;
        if (maxOrders <= customers) {
            throw new ConfigException(Settings.workloadKey(TpccFactory.MAX_ORDERS_PER_DISTRICT) + ": " + maxOrders + " leaves no slot for new orders;"
                    + " the load fills " + customers + " per district (3000 / " + TpccFactory.SCALE_DOWN + "), so it must be larger (0 = that plus 1000)");
        }
        standardMix = s.s(TpccFactory.MIX).equals("standard");
        mix = standardMix ? STANDARD_MIX : NEW_ORDER_MIX;
        int payments = standardMix ? s.i(TpccFactory.MAX_PAYMENTS_PER_COROUTINE) : 0;
        keys = new Keys(c.nodes(), c.threads(), s.i(TpccFactory.WAREHOUSES_PER_THREAD), c.coroutines(), customers, items, maxOrders, payments);
        keys.spread = s.s(TpccFactory.PLACEMENT).equals("spread");
        nu = new NuRand(seed, customers, items, keys.lastNames);
        remoteItemRatio = s.d(TpccFactory.REMOTE_ITEM_RATIO);
        distributedRatio = s.d(TpccFactory.DISTRIBUTED_RATIO);
        int longest = (customers + keys.lastNames - 1) / keys.lastNames;
        long lines = (long) keys.warehouses * DISTRICTS_PER_WAREHOUSE * customers * MIN_OL_CNT;
        if (exact) {
            // the exact sizes need every district's names and every order's line count (a function of the seed)
            int[] last = new int[customers], first = new int[customers], count = new int[LAST_NAMES];
            longest = 0;
            lines = 0;
            for (int w = 0; w < keys.warehouses; w++) {
                for (int d = 0; d < DISTRICTS_PER_WAREHOUSE; d++) {
                    customerNames(w, d, last, first);
                    Arrays.fill(count, 0);
                    for (int code : last) longest = Math.max(longest, ++count[code]);
                    for (int o = 1; o <= customers; o++) lines += initialOlCnt(keys.order(w, d, o));
                }
            }
        }
        maxIdsPerLastName = longest;
        orderLineRows = lines + (long) keys.warehouses * DISTRICTS_PER_WAREHOUSE * (maxOrders - customers) * MAX_ORDER_LINES;
    }

    @Override
    public List<TableSpec> tables() {
        int wh = keys.warehouses;
        long dists = (long) wh * DISTRICTS_PER_WAREHOUSE;
        return List.of(
                new TableSpec(WAREHOUSE, Warehouse.BYTES, wh, keys.byWarehouse(Keys.WAREHOUSE_KEYS)),
                new TableSpec(DISTRICT, District.BYTES, dists, keys.byWarehouse(Keys.DISTRICT_KEYS)),
                new TableSpec(NEW_ORDER_HEAD, NewOrderHead.BYTES, dists, keys.byWarehouse(Keys.DISTRICT_KEYS)),
                new TableSpec(CUSTOMER, Customer.BYTES, wh * keys.customerKeys(), keys.byWarehouse(keys.customerKeys())),
                new TableSpec(CUSTOMER_BY_LAST_NAME, CustomerByLastName.bytes(maxIdsPerLastName), dists * keys.lastNames,
                        keys.byWarehouse(keys.lastNameKeys())),
                new TableSpec(CUSTOMER_LAST_ORDER, CustomerLastOrder.BYTES, wh * keys.customerKeys(), keys.byWarehouse(keys.customerKeys())),
                new TableSpec(HISTORY, History.BYTES, wh * keys.historyPerWarehouse, keys.byWarehouse(keys.historyPerWarehouse)),
                new TableSpec(NEW_ORDER, NewOrder.BYTES, wh * keys.orderKeys(), keys.byWarehouse(keys.orderKeys())),
                new TableSpec(ORDER, Order.BYTES, wh * keys.orderKeys(), keys.byWarehouse(keys.orderKeys())),
                new TableSpec(ORDER_LINE, OrderLine.BYTES, orderLineRows, keys.byWarehouse(keys.orderLineKeys())),
                new TableSpec(ITEM, Item.BYTES, (long) keys.nodes * (keys.items + 1), keys.itemCopies()),
                new TableSpec(STOCK, Stock.BYTES, wh * keys.stockKeys(), keys.byWarehouse(keys.stockKeys())));
    }

    @Override public List<String> txnTypes() { return TYPES; }

    /**
     * Stock-Level is the largest: its district, the last 20 orders, up to 15 order lines each and the stock row
     * of every distinct item on them; Delivery (10 districts x ~20 rows) and New-Order (~55) are smaller.
     */
    @Override public int maxAccessesPerTxn() { return 1 + 20 + 2 * 20 * Schema.MAX_ORDER_LINES + 16; }

    /** O_OL_CNT of a loaded order: uniform 5..15, a function of the seed so the table can be sized before loading. */
    int initialOlCnt(long orderKey) {
        return MIN_OL_CNT + (int) Long.remainderUnsigned(Hashing.mix(Hashing.mix(seed, 0x01C47L), orderKey), 11);
    }

    /**
     * C_LAST codes and C_FIRST sort codes of a district's customers (index c - 1), from the seed: the first
     * min(1000, customers) customers take codes 0, 1, ... in turn, the rest NURand(255, 0, 999) (clause 4.3.3.1).
     */
    void customerNames(int w, int d, int[] last, int[] first) {
        SplittableRandom r = new SplittableRandom(Hashing.mix(Hashing.mix(seed, 0x1A57L), keys.district(w, d)));
        for (int c = 1; c <= keys.customers; c++) {
            last[c - 1] = c <= keys.lastNames ? c - 1 : nu.lastNameLoad(r);
            first[c - 1] = r.nextInt(Integer.MAX_VALUE);
        }
    }

    @Override
    public void load(Store store, long seed) {
        if (seed != this.seed) throw new IllegalArgumentException("load seed " + seed + " differs from the config's " + this.seed);
        warehouse = store.table(WAREHOUSE);
        district = store.table(DISTRICT);
        newOrderHead = store.table(NEW_ORDER_HEAD);
        customer = store.table(CUSTOMER);
        customerByLastName = store.table(CUSTOMER_BY_LAST_NAME);
        customerLastOrder = store.table(CUSTOMER_LAST_ORDER);
        history = store.table(HISTORY);
        newOrder = store.table(NEW_ORDER);
        order = store.table(ORDER);
        orderLine = store.table(ORDER_LINE);
        item = store.table(ITEM);
        stock = store.table(STOCK);
        new TpccLoader(this, store).load();
    }

    @Override
    public TxnGenerator replayer(CoroutineContext ctx) { return new TpccGenerator(this, ctx); }

    /** New-Order's (the largest: 8 words and 3 per order line). */
    @Override public int maxPickBytes() { return NewOrderTxn.PICK_BYTES; }

    @Override
    public TxnGenerator generator(CoroutineContext ctx) {
        TpccGenerator g = new TpccGenerator(this, ctx);
        generators.add(g);
        return g;
    }

    /** Orders delivered by committed Delivery transactions in district (w, d), summed over every coroutine. */
    long delivered(int w, int d) {
        long n = remoteDelivered == null ? 0 : remoteDelivered[w * Schema.DISTRICTS_PER_WAREHOUSE + d];
        for (TpccGenerator g : generators) n += g.delivered(w, d);
        return n;
    }

    /** Orders delivered per district by generators in other processes (tcp), index w * districts + d. */
    private long[] remoteDelivered;

    @Override
    public long[] tallies() {
        long[] t = new long[keys.warehouses * Schema.DISTRICTS_PER_WAREHOUSE];
        for (int w = 0; w < keys.warehouses; w++) {
            for (int d = 0; d < Schema.DISTRICTS_PER_WAREHOUSE; d++) {
                for (TpccGenerator g : generators) t[w * Schema.DISTRICTS_PER_WAREHOUSE + d] += g.delivered(w, d);
            }
        }
        return t;
    }

    @Override
    public void addTallies(long[] other) {
        if (remoteDelivered == null) remoteDelivered = new long[other.length];
        for (int i = 0; i < other.length; i++) remoteDelivered[i] += other[i];
    }

    @Override
    public Map<String, Boolean> checkInvariants(Store store) {
        return new ConsistencyCheck(this, store).run();
    }
}
