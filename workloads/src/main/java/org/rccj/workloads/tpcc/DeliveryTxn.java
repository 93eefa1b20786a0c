package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import org.rccj.framework.txn.Tx;

/**
 * Delivery (clause 2.7), one transaction for all ten districts of the home warehouse. Rounds, each dependent
 * on the one before:
 * <ol>
 * <li>the ten NEW_ORDER_HEAD rows (read-for-update): the oldest undelivered order id of each district;</li>
 * <li>that order's NEW-ORDER and ORDER slots (read-for-update);</li>
 * <li>for each district whose NEW-ORDER slot is valid: the order's O_OL_CNT ORDER-LINEs and its CUSTOMER
 * (read-for-update).</li>
 * </ol>
 * A district whose oldest slot is not valid has no undelivered order and is skipped (2.7.4.2); its head and
 * slots are written back unchanged.
 */
final class DeliveryTxn extends TpccTxn {
    private static final int D = DISTRICTS_PER_WAREHOUSE;
    private int carrier;
    private final int[] headH = new int[D], noH = new int[D], orderH = new int[D], custH = new int[D], olCnt = new int[D];
    private final int[] lineH = new int[D * MAX_ORDER_LINES];
    private final long[] head = new long[D];
    private final boolean[] delivering = new boolean[D];
    /** Committed deliveries per district of this coroutine's home warehouses ((w - first home) * 10 + d). */
    private final long[] deliveredCount;

    DeliveryTxn(TpccGenerator gen) {
        super(gen);
        deliveredCount = new long[k.warehousesPerThread * D];
    }

    @Override
    void pick(int home) {
        w = home;
        carrier = uniform(1, 10);
    }

    @Override
    void fields(Words io) {
        w = io.i(w);
        carrier = io.i(carrier);
        dateField(io);
    }

    @Override
    void execute(Tx tx) {
        for (int d = 0; d < D; d++) headH[d] = tx.readForUpdate(wl.newOrderHead, k.district(w, d));
        tx.fetch();
        for (int d = 0; d < D; d++) {
            long h = tx.get(headH[d], NewOrderHead.O_ID);
            head[d] = h;
            if (h < 1) throw INCONSISTENT;
            if (h <= k.maxOrders) {
                noH[d] = tx.readForUpdate(wl.newOrder, k.order(w, d, h));
                orderH[d] = tx.readForUpdate(wl.order, k.order(w, d, h));
            } else {
                noH[d] = -1;                          // every slot delivered: nothing left in this district
            }
        }
        tx.fetch();
        for (int d = 0; d < D; d++) {
            delivering[d] = noH[d] >= 0 && tx.get(noH[d], NewOrder.VALID) != 0;
            if (!delivering[d]) continue;
            int o = orderH[d];
            long n = tx.get(o, Order.OL_CNT), c = tx.get(o, Order.C_ID);
            if (tx.get(o, Order.VALID) == 0 || n < 1 || n > MAX_ORDER_LINES || c < 1 || c > k.customers) throw INCONSISTENT;
            olCnt[d] = (int) n;
            custH[d] = tx.readForUpdate(wl.customer, k.customer(w, d, c));
            for (int ol = 1; ol <= n; ol++) lineH[d * MAX_ORDER_LINES + ol - 1] = tx.readForUpdate(wl.orderLine, k.orderLine(w, d, head[d], ol));
        }
        tx.fetch();
        long now = date();
        for (int d = 0; d < D; d++) {
            if (!delivering[d]) continue;
            tx.put(noH[d], NewOrder.VALID, 0);
            tx.put(headH[d], NewOrderHead.O_ID, head[d] + 1);
            tx.put(orderH[d], Order.CARRIER_ID, carrier);
            long sum = 0;
            for (int ol = 0; ol < olCnt[d]; ol++) {
                int l = lineH[d * MAX_ORDER_LINES + ol];
                if (tx.get(l, OrderLine.VALID) == 0) throw INCONSISTENT;
                sum += tx.get(l, OrderLine.AMOUNT);
                tx.put(l, OrderLine.DELIVERY_D, now);
            }
            int c = custH[d];
            tx.put(c, Customer.BALANCE, tx.get(c, Customer.BALANCE) + sum);
            tx.put(c, Customer.DELIVERY_CNT, tx.get(c, Customer.DELIVERY_CNT) + 1);
        }
    }

    @Override
    void committed(Tx tx) {
        int base = (w - gen.firstHome) * D;
        for (int d = 0; d < D; d++) if (delivering[d]) deliveredCount[base + d]++;
    }

    long delivered(int wh, int d) {
        int i = wh - gen.firstHome;
        return i < 0 || i >= k.warehousesPerThread ? 0 : deliveredCount[i * D + d];
    }
}
