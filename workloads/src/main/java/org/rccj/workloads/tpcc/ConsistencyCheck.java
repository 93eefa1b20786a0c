package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import java.util.LinkedHashMap;
import java.util.Map;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;

/**
 * The specification's consistency conditions (clause 3.3.2.1-12), checked after a run by scanning every
 * table straight from memory, plus two checks of this implementation's own indexes. Each is reported by
 * name; all are checked for both mixes (in the new-order mix 8-10 and 12 only see the load's values).
 * Where a condition needs interpretation:
 * <ul>
 * <li>2: when a district's NEW-ORDER is empty (everything delivered), max(NO_O_ID) is null; the condition
 * then requires D_NEXT_O_ID - 1 = max(O_ID) only.</li>
 * <li>5 also fails for a NEW-ORDER row without its ORDER row.</li>
 * <li>11 (count(ORDER) - count(NEW-ORDER) = 2100) holds only until the first Delivery; it is checked as
 * count(ORDER) - count(NEW-ORDER) = 2100 (scaled: the loaded delivered orders) + the orders committed
 * Deliveries took out of that district, which is what it means under Delivery.</li>
 * </ul>
 */
final class ConsistencyCheck {
    static final String C1 = "tpcc_1_w_ytd_eq_sum_d_ytd";
    static final String C2 = "tpcc_2_d_next_o_id_eq_max_o_id_eq_max_no_o_id";
    static final String C3 = "tpcc_3_new_order_ids_contiguous";
    static final String C4 = "tpcc_4_sum_o_ol_cnt_eq_order_line_rows";
    static final String C5 = "tpcc_5_o_carrier_null_iff_new_order_row";
    static final String C6 = "tpcc_6_o_ol_cnt_eq_order_lines_of_order";
    static final String C7 = "tpcc_7_ol_delivery_d_null_iff_o_carrier_null";
    static final String C8 = "tpcc_8_w_ytd_eq_sum_h_amount";
    static final String C9 = "tpcc_9_d_ytd_eq_sum_h_amount";
    static final String C10 = "tpcc_10_c_balance_eq_delivered_minus_paid";
    static final String C11 = "tpcc_11_orders_minus_new_orders_eq_initial_plus_delivered";
    static final String C12 = "tpcc_12_c_balance_plus_ytd_payment_eq_delivered";
    static final String LAST_ORDER_INDEX = "tpcc_index_customer_last_order";
    static final String NEW_ORDER_HEAD_INDEX = "tpcc_index_new_order_head";

    private final Tpcc wl;
    private final Keys k;
    private final Store store;

    ConsistencyCheck(Tpcc wl, Store store) {
        this.wl = wl;
        this.k = wl.keys;
        this.store = store;
    }

    private long field(Table t, int node, long off, int f) { return t.getField(store.fabric().memory(node), off, f); }

    Map<String, Boolean> run() {
        final int warehouses = k.warehouses, districts = warehouses * DISTRICTS_PER_WAREHOUSE, m = k.maxOrders, cs = k.customers;
        long[] wYtd = new long[warehouses], dYtd = new long[districts], dNext = new long[districts], head = new long[districts];
        store.forEach(wl.warehouse, (n, key, off) -> wYtd[(int) key] = field(wl.warehouse, n, off, Warehouse.YTD));
        store.forEach(wl.district, (n, key, off) -> {
            dYtd[(int) key] = field(wl.district, n, off, District.YTD);
            dNext[(int) key] = field(wl.district, n, off, District.NEXT_O_ID);
        });
        store.forEach(wl.newOrderHead, (n, key, off) -> head[(int) key] = field(wl.newOrderHead, n, off, NewOrderHead.O_ID));

        int orders = districts * m;
        boolean[] oValid = new boolean[orders], noValid = new boolean[orders];
        int[] oCid = new int[orders], oOlCnt = new int[orders], lines = new int[orders];
        long[] oCarrier = new long[orders];
        store.forEach(wl.order, (n, key, off) -> {
            int o = (int) key;
            oValid[o] = field(wl.order, n, off, Order.VALID) != 0;
            oCid[o] = (int) field(wl.order, n, off, Order.C_ID);
            oOlCnt[o] = (int) field(wl.order, n, off, Order.OL_CNT);
            oCarrier[o] = field(wl.order, n, off, Order.CARRIER_ID);
        });
        store.forEach(wl.newOrder, (n, key, off) -> noValid[(int) key] = field(wl.newOrder, n, off, NewOrder.VALID) != 0);

        long[] olRows = new long[districts];
        long[] delivered = new long[districts * cs];
        boolean[] c7 = {true};
        store.forEach(wl.orderLine, (n, key, off) -> {
            if (field(wl.orderLine, n, off, OrderLine.VALID) == 0) return;
            int o = (int) (key / MAX_ORDER_LINES);
            lines[o]++;
            olRows[o / m]++;
            boolean done = field(wl.orderLine, n, off, OrderLine.DELIVERY_D) != 0;
            if (!oValid[o]) return;                                   // an orphan line: condition 4 fails
            if (done != (oCarrier[o] != 0)) c7[0] = false;
            if (done && oCid[o] >= 1 && oCid[o] <= cs) delivered[(o / m) * cs + oCid[o] - 1] += field(wl.orderLine, n, off, OrderLine.AMOUNT);
        });

        long[] hW = new long[warehouses], hD = new long[districts], hC = new long[districts * cs];
        boolean[] historyOk = {true};
        store.forEach(wl.history, (n, key, off) -> {
            if (field(wl.history, n, off, History.VALID) == 0) return;
            long a = field(wl.history, n, off, History.AMOUNT);
            long w = field(wl.history, n, off, History.W_ID), d = field(wl.history, n, off, History.D_ID);
            long cw = field(wl.history, n, off, History.C_W_ID), cd = field(wl.history, n, off, History.C_D_ID),
                    c = field(wl.history, n, off, History.C_ID);
            if (w < 0 || w >= warehouses || d < 0 || d >= DISTRICTS_PER_WAREHOUSE || cw < 0 || cw >= warehouses
                    || cd < 0 || cd >= DISTRICTS_PER_WAREHOUSE || c < 1 || c > cs) {
                historyOk[0] = false;
                return;
            }
            hW[(int) w] += a;
            hD[(int) (w * DISTRICTS_PER_WAREHOUSE + d)] += a;
            hC[(int) ((cw * DISTRICTS_PER_WAREHOUSE + cd) * cs + c - 1)] += a;
        });

        long[] balance = new long[districts * cs], ytdPayment = new long[districts * cs], lastOrder = new long[districts * cs];
        store.forEach(wl.customer, (n, key, off) -> {
            balance[(int) key] = field(wl.customer, n, off, Customer.BALANCE);
            ytdPayment[(int) key] = field(wl.customer, n, off, Customer.YTD_PAYMENT);
        });
        store.forEach(wl.customerLastOrder, (n, key, off) -> lastOrder[(int) key] = field(wl.customerLastOrder, n, off, CustomerLastOrder.O_ID));

        boolean c1 = true, c2 = true, c3 = true, c4 = true, c5 = true, c6 = true, c8 = historyOk[0], c9 = historyOk[0],
                c10 = historyOk[0], c11 = true, c12 = true, lastOrderOk = true, headOk = true;
        long[] newestOrder = new long[districts * cs];
        for (int w = 0; w < warehouses; w++) {
            long sum = 0;
            for (int d = 0; d < DISTRICTS_PER_WAREHOUSE; d++) sum += dYtd[w * DISTRICTS_PER_WAREHOUSE + d];
            c1 &= wYtd[w] == sum;
            c8 &= wYtd[w] == hW[w];
        }
        for (int dk = 0; dk < districts; dk++) {
            long maxO = 0, maxNo = 0, minNo = Long.MAX_VALUE, noCount = 0, oCount = 0, olCntSum = 0;
            for (int s = 0; s < m; s++) {
                int o = dk * m + s;
                long id = s + 1;
                if (noValid[o]) {
                    noCount++;
                    maxNo = Math.max(maxNo, id);
                    minNo = Math.min(minNo, id);
                    if (!oValid[o]) c5 = false;
                }
                if (!oValid[o]) continue;
                oCount++;
                maxO = id;
                olCntSum += oOlCnt[o];
                if ((oCarrier[o] == 0) != noValid[o]) c5 = false;
                if (oOlCnt[o] != lines[o]) c6 = false;
                if (oCid[o] >= 1 && oCid[o] <= cs) {
                    int ci = dk * cs + oCid[o] - 1;
                    newestOrder[ci] = Math.max(newestOrder[ci], id);
                }
            }
            c2 &= dNext[dk] - 1 == maxO && (noCount == 0 || maxNo == maxO);
            c3 &= noCount == 0 || maxNo - minNo + 1 == noCount;
            c4 &= olCntSum == olRows[dk];
            c9 &= dYtd[dk] == hD[dk];
            long loadedDelivered = cs - wl.initialNewOrders;
            c11 &= oCount - noCount == loadedDelivered + wl.delivered(dk / DISTRICTS_PER_WAREHOUSE, dk % DISTRICTS_PER_WAREHOUSE);
            headOk &= head[dk] == (noCount > 0 ? minNo : dNext[dk]);
        }
        for (int ci = 0; ci < districts * cs; ci++) {
            c10 &= balance[ci] == delivered[ci] - hC[ci];
            c12 &= balance[ci] + ytdPayment[ci] == delivered[ci];
            lastOrderOk &= lastOrder[ci] == newestOrder[ci];
        }
        Map<String, Boolean> r = new LinkedHashMap<>();
        r.put(C1, c1);
        r.put(C2, c2);
        r.put(C3, c3);
        r.put(C4, c4);
        r.put(C5, c5);
        r.put(C6, c6);
        r.put(C7, c7[0]);
        r.put(C8, c8);
        r.put(C9, c9);
        r.put(C10, c10);
        r.put(C11, c11);
        r.put(C12, c12);
        r.put(LAST_ORDER_INDEX, lastOrderOk);
        r.put(NEW_ORDER_HEAD_INDEX, headOk);
        return r;
    }
}
