package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import org.rccj.framework.config.ConfigException;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Tx;

/**
 * New-Order (clause 2.4). Two fetch rounds:
 * <ol>
 * <li>WAREHOUSE (read, W_TAX), DISTRICT (read-for-update), CUSTOMER (read), the lines' ITEMs (read, this node's
 * copy). An item that is not valid (the 1% with an unused item number) rolls the transaction back here,
 * before anything is written.</li>
 * <li>Dependent on D_NEXT_O_ID: the ORDER, NEW-ORDER and ORDER-LINE slots of the new order id, plus
 * CUSTOMER_LAST_ORDER and the lines' STOCK rows (read-for-update; these two do not depend on round 1 but
 * wait for it so a rolled-back order never touches the stock of its unused item).</li>
 * </ol>
 * Each line's supplying warehouse is the home one, or with {@code remote_item_ratio} another (clause
 * 2.4.1.5); with {@code distributed_ratio} one line of the order is moreover supplied by a warehouse on
 * another node (the RDMA papers' "distributed New-Order").
 */
final class NewOrderTxn extends TpccTxn {
    /** The order slot at D_NEXT_O_ID is already used: D_NEXT_O_ID was read stale (retried). */
    static final AbortException SLOT_TAKEN = AbortException.conflict("tpcc_order_slot_taken");

    private int olCnt, itemNode;
    private boolean rollback, allLocal;
    private final int[] itemId = new int[MAX_ORDER_LINES], supplyW = new int[MAX_ORDER_LINES], quantity = new int[MAX_ORDER_LINES];
    private final int[] itemH = new int[MAX_ORDER_LINES], stockH = new int[MAX_ORDER_LINES], lineH = new int[MAX_ORDER_LINES];
    /** The order's total (clause 2.4.2.2), computed as the output screen would show it. */
    long total;

    NewOrderTxn(TpccGenerator gen) { super(gen); }

    @Override
    void pick(int home) {
        w = home;
        itemNode = ctx.node;
        d = uniform(0, DISTRICTS_PER_WAREHOUSE - 1);
        c = wl.nu.customerId(rng);
        olCnt = uniform(5, MAX_ORDER_LINES);
        rollback = uniform(1, 100) == 1;
        int forcedRemote = -1;
        if (wl.distributedRatio > 0 && k.warehouses > 1 && rng.nextDouble() < wl.distributedRatio) {
            forcedRemote = rng.nextInt(rollback ? olCnt - 1 : olCnt);
        }
        allLocal = true;
        for (int l = 0; l < olCnt; l++) {
            itemId[l] = rollback && l == olCnt - 1 ? k.items + 1 : wl.nu.itemId(rng);
            if (l == forcedRemote) supplyW[l] = gen.warehouseOnOtherNode(w);
            else if (k.warehouses > 1 && rng.nextDouble() < wl.remoteItemRatio) supplyW[l] = gen.otherWarehouse(w);
            else supplyW[l] = w;
            if (supplyW[l] != w) allLocal = false;
            quantity[l] = uniform(1, 10);
        }
    }

    static final int PICK_BYTES = 8 * (7 + 3 * MAX_ORDER_LINES);

    @Override
    void fields(Words io) {
        homeFields(io);
        c = io.i(c);
        olCnt = io.i(olCnt);
        long flags = io.l((rollback ? 1 : 0) | (allLocal ? 2 : 0));
        rollback = (flags & 1) != 0;
        allLocal = (flags & 2) != 0;
        itemNode = io.i(itemNode);
        dateField(io);
        for (int l = 0; l < olCnt; l++) {
            itemId[l] = io.i(itemId[l]);
            supplyW[l] = io.i(supplyW[l]);
            quantity[l] = io.i(quantity[l]);
        }
    }

    @Override
    void execute(Tx tx) {
        int hw = tx.read(wl.warehouse, k.warehouse(w));
        int hd = tx.readForUpdate(wl.district, k.district(w, d));
        int hc = tx.read(wl.customer, k.customer(w, d, c));
        for (int l = 0; l < olCnt; l++) itemH[l] = tx.read(wl.item, k.item(itemNode, itemId[l]));
        tx.fetch();
        for (int l = 0; l < olCnt; l++) {
            if (tx.get(itemH[l], Item.VALID) == 0) tx.logicAbort();   // unused item number: roll back (2.4.2.3)
        }
        long o = tx.get(hd, District.NEXT_O_ID);
        if (o > k.maxOrders) {
            throw new ConfigException(org.rccj.framework.config.Settings.workloadKey(TpccFactory.MAX_ORDERS_PER_DISTRICT) + ": district (w=" + w + ", d=" + d + ") used all its "
                    + k.maxOrders + " order slots; raise it (or shorten the run)");
        }
        tx.put(hd, District.NEXT_O_ID, o + 1);
        int ho = tx.readForUpdate(wl.order, k.order(w, d, o));
        int hn = tx.readForUpdate(wl.newOrder, k.order(w, d, o));
        int hl = tx.readForUpdate(wl.customerLastOrder, k.customer(w, d, c));
        for (int l = 0; l < olCnt; l++) {
            stockH[l] = tx.readForUpdate(wl.stock, k.stock(supplyW[l], itemId[l]));
            lineH[l] = tx.readForUpdate(wl.orderLine, k.orderLine(w, d, o, l + 1));
        }
        tx.fetch();
        if (tx.get(ho, Order.VALID) != 0 || tx.get(hn, NewOrder.VALID) != 0) throw SLOT_TAKEN;
        long now = date();
        tx.put(ho, Order.VALID, 1);
        tx.put(ho, Order.C_ID, c);
        tx.put(ho, Order.ENTRY_D, now);
        tx.put(ho, Order.CARRIER_ID, 0);
        tx.put(ho, Order.OL_CNT, olCnt);
        tx.put(ho, Order.ALL_LOCAL, allLocal ? 1 : 0);
        tx.put(hn, NewOrder.VALID, 1);
        tx.put(hl, CustomerLastOrder.O_ID, o);
        long sum = 0;
        for (int l = 0; l < olCnt; l++) {
            int s = stockH[l], q = quantity[l];
            long sq = tx.get(s, Stock.QUANTITY);
            tx.put(s, Stock.QUANTITY, sq >= q + 10 ? sq - q : sq - q + 91);
            tx.put(s, Stock.YTD, tx.get(s, Stock.YTD) + q);
            tx.put(s, Stock.ORDER_CNT, tx.get(s, Stock.ORDER_CNT) + 1);
            if (supplyW[l] != w) tx.put(s, Stock.REMOTE_CNT, tx.get(s, Stock.REMOTE_CNT) + 1);
            long amount = q * tx.get(itemH[l], Item.PRICE);
            int ol = lineH[l];
            if (tx.get(ol, OrderLine.VALID) != 0) throw SLOT_TAKEN;
            tx.put(ol, OrderLine.VALID, 1);
            tx.put(ol, OrderLine.I_ID, itemId[l]);
            tx.put(ol, OrderLine.SUPPLY_W_ID, supplyW[l]);
            tx.put(ol, OrderLine.QUANTITY, q);
            tx.put(ol, OrderLine.AMOUNT, amount);
            tx.put(ol, OrderLine.DELIVERY_D, 0);
            sum += amount;
        }
        long taxBp = tx.get(hw, Warehouse.TAX) + tx.get(hd, District.TAX);
        total = sum * (10_000 - tx.get(hc, Customer.DISCOUNT)) / 10_000 * (10_000 + taxBp) / 10_000;
    }
}
