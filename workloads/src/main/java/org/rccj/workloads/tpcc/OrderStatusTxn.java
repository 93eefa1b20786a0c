package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import org.rccj.framework.txn.Tx;

/**
 * Order-Status (clause 2.6), read-only. Rounds: [CUSTOMER_BY_LAST_NAME index row (60%)] ->
 * CUSTOMER + CUSTOMER_LAST_ORDER -> that ORDER -> its O_OL_CNT ORDER-LINEs; each round's keys depend on the
 * one before.
 */
final class OrderStatusTxn extends TpccTxn {
    private final int[] lineH = new int[MAX_ORDER_LINES];
    /** The output screen's figures: customer balance, order id, carrier, sum of the lines' amounts. */
    long balance, orderId, carrier, linesAmount;

    OrderStatusTxn(TpccGenerator gen) { super(gen); }

    @Override
    void pick(int home) {
        w = home;
        d = uniform(0, DISTRICTS_PER_WAREHOUSE - 1);
        pickCustomer();
    }

    @Override
    void fields(Words io) {
        homeFields(io);
        customerFields(io);
    }

    @Override
    void execute(Tx tx) {
        long cid = c;
        if (byName) {
            int hi = tx.read(wl.customerByLastName, k.lastName(w, d, lastName));
            tx.fetch();
            cid = middleCustomer(tx, hi);
        }
        int hc = tx.read(wl.customer, k.customer(w, d, cid));
        int hl = tx.read(wl.customerLastOrder, k.customer(w, d, cid));
        tx.fetch();
        balance = tx.get(hc, Customer.BALANCE);
        long o = tx.get(hl, CustomerLastOrder.O_ID);
        if (o < 1 || o > k.maxOrders) throw INCONSISTENT;
        int ho = tx.read(wl.order, k.order(w, d, o));
        tx.fetch();
        long n = tx.get(ho, Order.OL_CNT);
        if (tx.get(ho, Order.VALID) == 0 || tx.get(ho, Order.C_ID) != cid || n < 1 || n > MAX_ORDER_LINES) throw INCONSISTENT;
        orderId = o;
        carrier = tx.get(ho, Order.CARRIER_ID);
        for (int ol = 1; ol <= n; ol++) lineH[ol - 1] = tx.read(wl.orderLine, k.orderLine(w, d, o, ol));
        tx.fetch();
        long sum = 0;
        for (int l = 0; l < n; l++) sum += tx.get(lineH[l], OrderLine.AMOUNT);
        linesAmount = sum;
    }
}
