package org.rccj.workloads.smallbank;

import java.util.SplittableRandom;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;

import static org.rccj.workloads.smallbank.SmallBank.*;

/** One coroutine's SmallBank transactions. */
final class SmallBankGenerator implements TxnGenerator {
    private final SmallBank wl;
    private final SplittableRandom rng;
    private int type;
    private long a, b;
    /** Net money this transaction adds to the bank if it commits, set by execute. */
    private long delta;
    /** Net money added by this coroutine's committed transactions. */
    long committedDelta;

    private final int node, nodes;
    private final java.util.function.LongSupplier draw = this::draw;

    SmallBankGenerator(SmallBank wl, SplittableRandom rng, int node, int nodes) {
        this.wl = wl;
        this.rng = rng;
        this.node = node;
        this.nodes = nodes;
    }

    private long draw() {
        return rng.nextDouble() < wl.hotProbability ? rng.nextLong(wl.hotAccounts) : rng.nextLong(wl.accounts);
    }

    private long account() { return org.rccj.workloads.LocalFraction.pick(wl.localFraction, rng, draw, wl.checking, node, nodes); }

    @Override
    public int next() {
        int p = rng.nextInt(100);
        int t = 0;
        while (p >= wl.mix[t]) t++;
        type = t;
        a = account();
        if (type == AMALGAMATE || type == SEND_PAYMENT) {
            do { b = account(); } while (b == a);
        }
        return type;
    }

    // replay: the pick is the two accounts
    static final int PICK_A = 0, PICK_B = 8, PICK_BYTES = 16;

    @Override
    public int savePick(byte[] dst, int off) {
        Bytes.putLong(dst, off + PICK_A, a);
        Bytes.putLong(dst, off + PICK_B, b);
        return PICK_BYTES;
    }

    @Override
    public void loadPick(int type, byte[] src, int off) {
        this.type = type;
        a = Bytes.getLong(src, off + PICK_A);
        b = Bytes.getLong(src, off + PICK_B);
    }

    @Override
    public void execute(Tx tx) {
        delta = 0;
        switch (type) {
            case AMALGAMATE -> {
                int sa = tx.readForUpdate(wl.savings, a), ca = tx.readForUpdate(wl.checking, a), cb = tx.readForUpdate(wl.checking, b);
                tx.fetch();
                long total = tx.get(sa, BALANCE) + tx.get(ca, BALANCE);
                tx.put(sa, BALANCE, 0);
                tx.put(ca, BALANCE, 0);
                tx.put(cb, BALANCE, tx.get(cb, BALANCE) + total);
            }
            case BALANCE_TX -> {
                tx.read(wl.savings, a);
                tx.read(wl.checking, a);
                tx.fetch();
            }
            case DEPOSIT_CHECKING -> credit(tx, wl.checking, DEPOSIT);
            case SEND_PAYMENT -> {
                int ca = tx.readForUpdate(wl.checking, a), cb = tx.readForUpdate(wl.checking, b);
                tx.fetch();
                long from = tx.get(ca, BALANCE);
                if (from < PAYMENT) tx.logicAbort();
                tx.put(ca, BALANCE, from - PAYMENT);
                tx.put(cb, BALANCE, tx.get(cb, BALANCE) + PAYMENT);
            }
            case TRANSACT_SAVINGS -> credit(tx, wl.savings, SAVINGS_CREDIT);
            case WRITE_CHECK -> {
                int s = tx.read(wl.savings, a), c = tx.readForUpdate(wl.checking, a);
                tx.fetch();
                long debit = tx.get(s, BALANCE) + tx.get(c, BALANCE) < CHECK ? CHECK + OVERDRAFT_PENALTY : CHECK;
                tx.put(c, BALANCE, tx.get(c, BALANCE) - debit);
                delta = -debit;
            }
            default -> throw new IllegalStateException("type " + type);
        }
    }

    /** DepositChecking and TransactSaving: adds {@code amount} to account a's balance in {@code table}. */
    private void credit(Tx tx, Table table, long amount) {
        int row = tx.readForUpdate(table, a);
        tx.fetch();
        tx.put(row, BALANCE, tx.get(row, BALANCE) + amount);
        delta = amount;
    }

    @Override
    public void committed(Tx tx) { committedDelta += delta; }
}
