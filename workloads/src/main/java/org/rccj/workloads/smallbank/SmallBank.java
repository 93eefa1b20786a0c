package org.rccj.workloads.smallbank;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Hashing;
import org.rccj.framework.store.Partitioner;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;

/**
 * SmallBank with FaSST's semantics. Two tables keyed by account id, SAVINGS and CHECKING, each record
 * one balance in integer cents; accounts are hashed over all nodes (no locality).
 * Invariant {@code total_money}: the sum of all balances equals the loaded total plus what committed
 * transactions deposited (DepositChecking, TransactSavings) minus what they debited (WriteCheck).
 */
public final class SmallBank implements Workload {
    /** Record layout: one 8-byte balance in cents. */
    static final int BALANCE = 0;
    static final int RECORD_BYTES = 8;
    static final String SAVINGS = "savings", CHECKING = "checking";
    static final List<String> TYPES = List.of("Amalgamate", "Balance", "DepositChecking", "SendPayment", "TransactSavings", "WriteCheck");
    static final int AMALGAMATE = 0, BALANCE_TX = 1, DEPOSIT_CHECKING = 2, SEND_PAYMENT = 3, TRANSACT_SAVINGS = 4, WRITE_CHECK = 5;
    /** Cumulative mix weights in percent, in TYPES order. */
    static final int[] STANDARD_MIX = {15, 30, 45, 70, 85, 100};
    static final int[] UNIFORM_MIX = {17, 34, 50, 67, 84, 100};
    /** Amounts in cents (FaSST: 1.3, 5.0, 20.20, 5.0 dollars; WriteCheck overdraft penalty 1 dollar). */
    static final long DEPOSIT = 130, PAYMENT = 500, SAVINGS_CREDIT = 2020, CHECK = 500, OVERDRAFT_PENALTY = 100;
    static final long MIN_BALANCE = 1_000_000, BALANCE_SPREAD = 4_000_000;

    final long accounts;
    final long hotAccounts;
    final double hotProbability;
    /** Null unless local_fraction is set. */
    final Double localFraction;
    final int[] mix;
    private long initialTotal;
    Table savings, checking;
    private final List<SmallBankGenerator> generators = new ArrayList<>();

    SmallBank(WorkloadSetup s) {
        accounts = (long) s.i(SmallBankFactory.ACCOUNTS_PER_THREAD) * s.cluster().workers();
        hotAccounts = Math.max(1, Math.round(accounts * s.d(SmallBankFactory.HOT_FRACTION)));
        hotProbability = s.d(SmallBankFactory.HOT_PROBABILITY);
        localFraction = (Double) s.params().get(org.rccj.workloads.LocalFraction.KEY);
        mix = s.s(SmallBankFactory.MIX).equals("uniform") ? UNIFORM_MIX : STANDARD_MIX;
    }

    @Override
    public List<TableSpec> tables() {
        return List.of(new TableSpec(SAVINGS, RECORD_BYTES, accounts, Partitioner.HASH),
                new TableSpec(CHECKING, RECORD_BYTES, accounts, Partitioner.HASH));
    }

    @Override public List<String> txnTypes() { return TYPES; }

    /** Amalgamate: two savings/checking rows of one account and the other's checking. */
    @Override public int maxAccessesPerTxn() { return 3; }

    static long initialBalance(long seed, int table, long account) {
        return MIN_BALANCE + Long.remainderUnsigned(Hashing.mix(Hashing.mix(seed, table), account), BALANCE_SPREAD);
    }

    @Override
    public void load(Store store, long seed) {
        savings = store.table(SAVINGS);
        checking = store.table(CHECKING);
        byte[] rec = new byte[RECORD_BYTES];
        long total = 0;
        for (long a = 0; a < accounts; a++) {
            long s = initialBalance(seed, savings.id, a), c = initialBalance(seed, checking.id, a);
            Bytes.putLong(rec, BALANCE, s);
            store.load(savings, a, rec);
            Bytes.putLong(rec, BALANCE, c);
            store.load(checking, a, rec);
            total += s + c;
        }
        initialTotal = total;
    }

    @Override
    public TxnGenerator generator(CoroutineContext ctx) {
        SmallBankGenerator g = new SmallBankGenerator(this, ctx.rng, ctx.node, ctx.cluster().nodes());
        generators.add(g);
        return g;
    }

    @Override
    public TxnGenerator replayer(CoroutineContext ctx) { return new SmallBankGenerator(this, ctx.rng, ctx.node, ctx.cluster().nodes()); }

    @Override public int maxPickBytes() { return SmallBankGenerator.PICK_BYTES; }

    /** Sum of all balances now, read straight from memory. */
    long totalMoney(Store store) {
        long[] sum = {0};
        for (Table t : List.of(savings, checking)) {
            store.forEach(t, (node, key, off) -> sum[0] += t.getField(store.fabric().memory(node), off, BALANCE));
        }
        return sum[0];
    }

    /** Committed deltas of generators in other processes (tcp). */
    private long remoteDelta;

    @Override public long[] tallies() {
        long e = 0;
        for (SmallBankGenerator g : generators) e += g.committedDelta;
        return new long[] {e};
    }

    @Override public void addTallies(long[] other) { remoteDelta += other[0]; }

    long expectedMoney() {
        long e = initialTotal + remoteDelta;
        for (SmallBankGenerator g : generators) e += g.committedDelta;
        return e;
    }

    @Override
    public Map<String, Boolean> checkInvariants(Store store) {
        Map<String, Boolean> m = new LinkedHashMap<>();
        m.put("total_money", totalMoney(store) == expectedMoney());
        return m;
    }
}
