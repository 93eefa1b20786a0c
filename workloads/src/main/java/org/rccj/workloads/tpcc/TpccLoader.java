package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.rccj.framework.store.Hashing;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;

/**
 * The initial population (clause 4.3.3.1), deterministic for the seed: per warehouse one random stream, per
 * node an identical ITEM copy. Scaled by {@code scale_down}: per district customers = orders = 3000 / s of
 * which the newest 30% are undelivered (in NEW-ORDER), items = stock rows per warehouse = 100000 / s;
 * D_YTD and W_YTD follow the customers (10.00 per customer) so conditions 8 and 9 hold. Also writes the
 * empty slots: order slots up to {@code max_orders_per_district} (with 15 order-line slots each) and each
 * coroutine's HISTORY slots.
 */
final class TpccLoader {
    private final Tpcc wl;
    private final Keys k;
    private final Store store;
    private final byte[] rec = new byte[64];
    private final byte[] empty = new byte[64];

    TpccLoader(Tpcc wl, Store store) {
        this.wl = wl;
        this.k = wl.keys;
        this.store = store;
    }

    private void put(Table t, long key, byte[] record) { store.load(t, key, record); }

    private void clear() { Arrays.fill(rec, (byte) 0); }

    void load() {
        loadItems();
        for (int w = 0; w < k.warehouses; w++) loadWarehouse(w);
    }

    private void loadItems() {
        SplittableRandom r = new SplittableRandom(Hashing.mix(wl.seed, 0x17E4L));
        long[] price = new long[k.items + 1], imId = new long[k.items + 1];
        for (int i = 1; i <= k.items; i++) {
            price[i] = NuRand.uniform(r, 100, 10_000);     // I_PRICE 1.00 .. 100.00
            imId[i] = NuRand.uniform(r, 1, 10_000);
        }
        for (int n = 0; n < k.nodes; n++) {
            for (int i = 1; i <= k.items + 1; i++) {
                clear();
                if (i <= k.items) {
                    Bytes.putLong(rec, Item.VALID, 1);
                    Bytes.putLong(rec, Item.PRICE, price[i]);
                    Bytes.putLong(rec, Item.IM_ID, imId[i]);
                }
                put(wl.item, k.item(n, i), rec);
            }
        }
    }

    private void loadWarehouse(int w) {
        SplittableRandom r = new SplittableRandom(Hashing.mix(wl.seed, 0x3A7EL + w));
        int customers = k.customers;
        clear();
        Bytes.putLong(rec, Warehouse.YTD, Tpcc.INITIAL_W_YTD_PER_CUSTOMER * customers);
        Bytes.putLong(rec, Warehouse.TAX, NuRand.uniform(r, 0, 2000));
        put(wl.warehouse, k.warehouse(w), rec);

        for (int i = 1; i <= k.items; i++) {
            clear();
            Bytes.putLong(rec, Stock.QUANTITY, NuRand.uniform(r, 10, 100));
            put(wl.stock, k.stock(w, i), rec);
        }

        int[] last = new int[customers], first = new int[customers];
        int[] orderOf = new int[customers + 1];
        int[] perm = new int[customers];
        int delivered = customers - wl.initialNewOrders;
        for (int d = 0; d < DISTRICTS_PER_WAREHOUSE; d++) {
            clear();
            Bytes.putLong(rec, District.YTD, Tpcc.INITIAL_D_YTD_PER_CUSTOMER * customers);
            Bytes.putLong(rec, District.TAX, NuRand.uniform(r, 0, 2000));
            Bytes.putLong(rec, District.NEXT_O_ID, customers + 1);
            put(wl.district, k.district(w, d), rec);
            clear();
            Bytes.putLong(rec, NewOrderHead.O_ID, delivered + 1);
            put(wl.newOrderHead, k.district(w, d), rec);

            wl.customerNames(w, d, last, first);
            for (int c = 1; c <= customers; c++) {
                clear();
                Bytes.putLong(rec, Customer.BALANCE, Tpcc.INITIAL_BALANCE);
                Bytes.putLong(rec, Customer.YTD_PAYMENT, Tpcc.INITIAL_YTD_PAYMENT);
                Bytes.putLong(rec, Customer.PAYMENT_CNT, 1);
                Bytes.putLong(rec, Customer.DISCOUNT, NuRand.uniform(r, 0, 5000));
                Bytes.putLong(rec, Customer.CREDIT, r.nextInt(10) == 0 ? Customer.BAD_CREDIT : Customer.GOOD_CREDIT);
                Bytes.putLong(rec, Customer.CREDIT_LIM, Tpcc.CREDIT_LIMIT);
                Bytes.putLong(rec, Customer.LAST, last[c - 1]);
                put(wl.customer, k.customer(w, d, c), rec);
                clear();
                Bytes.putLong(rec, History.VALID, 1);
                Bytes.putLong(rec, History.C_W_ID, w);
                Bytes.putLong(rec, History.C_D_ID, d);
                Bytes.putLong(rec, History.C_ID, c);
                Bytes.putLong(rec, History.W_ID, w);
                Bytes.putLong(rec, History.D_ID, d);
                Bytes.putLong(rec, History.AMOUNT, Tpcc.INITIAL_HISTORY_AMOUNT);
                put(wl.history, k.initialHistory(w, d, c), rec);
            }
            loadLastNameIndex(w, d, last, first);

            // O_C_ID: a random permutation of the customers
            for (int i = 0; i < customers; i++) perm[i] = i + 1;
            for (int i = customers - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int t = perm[i];
                perm[i] = perm[j];
                perm[j] = t;
            }
            for (int o = 1; o <= customers; o++) {
                int c = perm[o - 1];
                orderOf[c] = o;
                boolean done = o <= delivered;
                int olCnt = wl.initialOlCnt(k.order(w, d, o));
                clear();
                Bytes.putLong(rec, Order.VALID, 1);
                Bytes.putLong(rec, Order.C_ID, c);
                Bytes.putLong(rec, Order.ENTRY_D, Tpcc.LOAD_DATE);
                Bytes.putLong(rec, Order.CARRIER_ID, done ? NuRand.uniform(r, 1, 10) : 0);
                Bytes.putLong(rec, Order.OL_CNT, olCnt);
                Bytes.putLong(rec, Order.ALL_LOCAL, 1);
                put(wl.order, k.order(w, d, o), rec);
                clear();
                if (!done) Bytes.putLong(rec, NewOrder.VALID, 1);
                put(wl.newOrder, k.order(w, d, o), rec);
                for (int ol = 1; ol <= olCnt; ol++) {
                    clear();
                    Bytes.putLong(rec, OrderLine.VALID, 1);
                    Bytes.putLong(rec, OrderLine.I_ID, NuRand.uniform(r, 1, k.items));
                    Bytes.putLong(rec, OrderLine.SUPPLY_W_ID, w);
                    Bytes.putLong(rec, OrderLine.QUANTITY, 5);
                    Bytes.putLong(rec, OrderLine.AMOUNT, done ? 0 : NuRand.uniform(r, 1, 999_999));
                    Bytes.putLong(rec, OrderLine.DELIVERY_D, done ? Tpcc.LOAD_DATE : 0);
                    put(wl.orderLine, k.orderLine(w, d, o, ol), rec);
                }
            }
            for (int c = 1; c <= customers; c++) {
                clear();
                Bytes.putLong(rec, CustomerLastOrder.O_ID, orderOf[c]);
                put(wl.customerLastOrder, k.customer(w, d, c), rec);
            }
            // empty slots for the run's new orders
            for (long o = customers + 1; o <= k.maxOrders; o++) {
                put(wl.order, k.order(w, d, o), empty);
                put(wl.newOrder, k.order(w, d, o), empty);
                for (int ol = 1; ol <= MAX_ORDER_LINES; ol++) put(wl.orderLine, k.orderLine(w, d, o, ol), empty);
            }
        }
        for (int co = 0; co < k.coroutines; co++) {
            for (long s = 0; s < k.paymentsPerCoroutine; s++) put(wl.history, k.paymentHistory(w, co, s), empty);
        }
    }

    /** One index row per C_LAST code in use: the district's customers with that code, sorted by C_FIRST. */
    private void loadLastNameIndex(int w, int d, int[] last, int[] first) {
        Integer[] byName = new Integer[last.length];
        for (int i = 0; i < byName.length; i++) byName[i] = i;
        Arrays.sort(byName, (a, b) -> last[a] != last[b] ? Integer.compare(last[a], last[b])
                : first[a] != first[b] ? Integer.compare(first[a], first[b]) : Integer.compare(a, b));
        byte[] idx = new byte[CustomerByLastName.bytes(wl.maxIdsPerLastName)];
        int p = 0;
        for (int code = 0; code < k.lastNames; code++) {
            Arrays.fill(idx, (byte) 0);
            int n = 0;
            while (p < byName.length && last[byName[p]] == code) {
                Bytes.putLong(idx, CustomerByLastName.idAt(n++), byName[p++] + 1);
            }
            Bytes.putLong(idx, CustomerByLastName.COUNT, n);
            put(wl.customerByLastName, k.lastName(w, d, code), idx);
        }
        if (p != byName.length) throw new IllegalStateException("C_LAST code outside 0.." + (k.lastNames - 1));
    }
}
