package org.rccj.workloads.tpcc;

import static org.rccj.workloads.tpcc.Schema.*;

import org.rccj.framework.config.ConfigException;
import org.rccj.framework.txn.Tx;

/**
 * Payment (clause 2.5). By customer id (40%) one fetch round: WAREHOUSE, DISTRICT, CUSTOMER and the HISTORY
 * slot, all read-for-update. By last name (60%) two: the first reads the CUSTOMER_BY_LAST_NAME index row
 * instead of the customer; the second the customer it names (dependent key). 15% of customers belong to
 * another warehouse. The HISTORY row goes to a slot of this coroutine's own area at the home warehouse
 * (HISTORY has no key in the specification; a per-terminal sequence keeps the slot independent of any read).
 */
final class PaymentTxn extends TpccTxn {
    private int cw, cd;
    private long amount;
    /** A replayed pick's HISTORY slot: the coordinator's coroutine index and sequence number. */
    private long loadedSeq;
    private int loadedCoroutine;
    /** Next HISTORY slot of this coroutine per home warehouse (advances on commit). */
    private final long[] historySeq;

    PaymentTxn(TpccGenerator gen) {
        super(gen);
        historySeq = new long[k.warehousesPerThread];
    }

    @Override
    void pick(int home) {
        w = home;
        d = uniform(0, DISTRICTS_PER_WAREHOUSE - 1);
        amount = uniform(100, 500_000);             // H_AMOUNT 1.00 .. 5000.00
        if (k.warehouses > 1 && rng.nextInt(100) < Tpcc.REMOTE_PAYMENT_PERCENT) {
            cw = gen.otherWarehouse(w);
            cd = uniform(0, DISTRICTS_PER_WAREHOUSE - 1);
        } else {
            cw = w;
            cd = d;
        }
        pickCustomer();
    }

    @Override
    void fields(Words io) {
        homeFields(io);
        cw = io.i(cw);
        cd = io.i(cd);
        customerFields(io);
        amount = io.l(amount);
        // the HISTORY slot execute uses: the coordinator's own when saving, the saved one when loading
        loadedCoroutine = io.i(loaded ? loadedCoroutine : ctx.index);
        loadedSeq = io.l(loaded ? loadedSeq : historySeq[w - gen.firstHome]);
    }

    @Override
    void execute(Tx tx) {
        long seq = loaded ? loadedSeq : historySeq[w - gen.firstHome];
        int coroutine = loaded ? loadedCoroutine : ctx.index;
        if (seq >= k.paymentsPerCoroutine) {
            throw new ConfigException(org.rccj.framework.config.Settings.workloadKey(TpccFactory.MAX_PAYMENTS_PER_COROUTINE) + ": coroutine " + ctx.index + " of worker (" + ctx.node
                    + ", " + ctx.worker().index + ") used all its " + k.paymentsPerCoroutine + " HISTORY slots at warehouse " + w
                    + "; raise it (or shorten the run)");
        }
        int hw = tx.readForUpdate(wl.warehouse, k.warehouse(w));
        int hd = tx.readForUpdate(wl.district, k.district(w, d));
        int hh = tx.readForUpdate(wl.history, k.paymentHistory(w, coroutine, seq));
        long cid;
        if (byName) {
            int hi = tx.read(wl.customerByLastName, k.lastName(cw, cd, lastName));
            tx.fetch();
            cid = middleCustomer(tx, hi);
        } else {
            cid = c;
        }
        int hc = tx.readForUpdate(wl.customer, k.customer(cw, cd, cid));
        tx.fetch();
        if (tx.get(hh, History.VALID) != 0) {
            throw new IllegalStateException("HISTORY slot " + seq + " of coroutine " + ctx.globalId + " is already used");
        }
        tx.put(hw, Warehouse.YTD, tx.get(hw, Warehouse.YTD) + amount);
        tx.put(hd, District.YTD, tx.get(hd, District.YTD) + amount);
        tx.put(hc, Customer.BALANCE, tx.get(hc, Customer.BALANCE) - amount);
        tx.put(hc, Customer.YTD_PAYMENT, tx.get(hc, Customer.YTD_PAYMENT) + amount);
        tx.put(hc, Customer.PAYMENT_CNT, tx.get(hc, Customer.PAYMENT_CNT) + 1);
        tx.put(hh, History.VALID, 1);
        tx.put(hh, History.C_W_ID, cw);
        tx.put(hh, History.C_D_ID, cd);
        tx.put(hh, History.C_ID, cid);
        tx.put(hh, History.W_ID, w);
        tx.put(hh, History.D_ID, d);
        tx.put(hh, History.AMOUNT, amount);
    }

    @Override
    void committed(Tx tx) { historySeq[w - gen.firstHome]++; }
}
