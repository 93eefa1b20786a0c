package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import org.rccj.framework.txn.Tx;

/**
 * Stock-Level (clause 2.8), read-only, for the coroutine's fixed district (a terminal's district, 2.8.1.1).
 * Rounds, each dependent on the one before: DISTRICT (D_NEXT_O_ID) -> the last 20 ORDERs (O_OL_CNT) -> their
 * ORDER-LINEs (OL_I_ID) -> the distinct items' STOCK rows at the home warehouse; counts S_QUANTITY below
 * the threshold.
 */
final class StockLevelTxn extends TpccTxn {
    private static final int ORDERS = 20;
    private int threshold;
    private final int[] orderH = new int[ORDERS];
    private final long[] orderId = new long[ORDERS];
    private final int[] lineH = new int[ORDERS * MAX_ORDER_LINES], stockH = new int[ORDERS * MAX_ORDER_LINES];
    /** The output: distinct items of the last 20 orders with stock below the threshold. */
    int lowStock;

    StockLevelTxn(TpccGenerator gen) { super(gen); }

    @Override
    void pick(int home) {
        w = home;
        d = ctx.index % DISTRICTS_PER_WAREHOUSE;
        threshold = uniform(10, 20);
    }

    @Override
    void fields(Words io) {
        homeFields(io);
        threshold = io.i(threshold);
    }

    @Override
    void execute(Tx tx) {
        int hd = tx.read(wl.district, k.district(w, d));
        tx.fetch();
        long next = tx.get(hd, District.NEXT_O_ID);
        if (next < 1 || next > k.maxOrders + 1L) throw INCONSISTENT;
        int orders = 0;
        for (long o = Math.max(1, next - ORDERS); o < next; o++) {
            orderId[orders] = o;
            orderH[orders++] = tx.read(wl.order, k.order(w, d, o));
        }
        tx.fetch();
        int lines = 0;
        for (int j = 0; j < orders; j++) {
            long n = tx.get(orderH[j], Order.OL_CNT);
            if (tx.get(orderH[j], Order.VALID) == 0 || n < 1 || n > MAX_ORDER_LINES) throw INCONSISTENT;
            for (int ol = 1; ol <= n; ol++) lineH[lines++] = tx.read(wl.orderLine, k.orderLine(w, d, orderId[j], ol));
        }
        tx.fetch();
        int stocks = 0;
        for (int j = 0; j < lines; j++) {
            long i = tx.get(lineH[j], OrderLine.I_ID);
            if (tx.get(lineH[j], OrderLine.VALID) == 0 || i < 1 || i > k.items) throw INCONSISTENT;
            int before = tx.size();
            int h = tx.read(wl.stock, k.stock(w, i));
            if (h == before) stockH[stocks++] = h;    // a new access: an item not seen before
        }
        tx.fetch();
        int low = 0;
        for (int j = 0; j < stocks; j++) if (tx.get(stockH[j], Stock.QUANTITY) < threshold) low++;
        lowStock = low;
    }
}
