package org.rccj.workloads.tpcc;

import java.util.SplittableRandom;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;

/**
 * One coroutine's TPC-C terminal: its home warehouses are its worker thread's ({@code warehouses_per_thread}
 * of them, one picked per transaction); the type follows the mix.
 */
final class TpccGenerator implements TxnGenerator {
    final Tpcc wl;
    final Keys k;
    final CoroutineContext ctx;
    final SplittableRandom rng;
    /** First home warehouse of this coroutine's worker thread. */
    final int firstHome;
    private final TpccTxn[] txns;
    private final DeliveryTxn delivery;
    private TpccTxn current;

    TpccGenerator(Tpcc wl, CoroutineContext ctx) {
        this.wl = wl;
        this.k = wl.keys;
        this.ctx = ctx;
        this.rng = ctx.rng;
        this.firstHome = k.firstWarehouseOf(ctx.node, ctx.worker().index);
        delivery = new DeliveryTxn(this);
        txns = new TpccTxn[] {new NewOrderTxn(this), new PaymentTxn(this), new OrderStatusTxn(this), delivery, new StockLevelTxn(this)};
    }

    @Override
    public int next() {
        int p = rng.nextInt(100);
        int t = 0;
        while (p >= wl.mix[t]) t++;
        current = txns[t];
        current.fresh();
        current.pick(firstHome + rng.nextInt(k.warehousesPerThread));
        return t;
    }

    @Override public void execute(Tx tx) { current.execute(tx); }

    @Override public int savePick(byte[] dst, int off) { return current.save(dst, off); }

    @Override
    public void loadPick(int type, byte[] src, int off) {
        current = txns[type];
        current.load(src, off);
    }

    @Override public void committed(Tx tx) { current.committed(tx); }

    /** A warehouse other than {@code w}, uniformly (w itself when there is only one). */
    int otherWarehouse(int w) {
        if (k.warehouses == 1) return w;
        int o = rng.nextInt(k.warehouses - 1);
        return o >= w ? o + 1 : o;
    }

    /** A warehouse on another node than {@code w}'s, uniformly (another warehouse when there is one node). */
    int warehouseOnOtherNode(int w) {
        if (k.nodes == 1) return otherWarehouse(w);
        int home = k.nodeOfWarehouse(w);
        int n = rng.nextInt(k.nodes - 1);
        if (n >= home) n++;
        return n * k.warehousesPerNode + rng.nextInt(k.warehousesPerNode);
    }

    /** Orders this coroutine's committed Deliveries took out of NEW-ORDER in district (w, d). */
    long delivered(int w, int d) { return delivery.delivered(w, d); }
}
