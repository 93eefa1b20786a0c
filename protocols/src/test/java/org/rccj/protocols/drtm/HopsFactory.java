package org.rccj.protocols.drtm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Hashing;
import org.rccj.framework.store.Partitioner;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;

/**
 * Test-only workload "test-hops": transactions whose second key depends on a value read in the first
 * round (two fetch rounds). Each account has a balance and a pointer to another account. Hop(a) moves one
 * unit from a to a.next and re-points a; Peek(a) reads a and then a.next. Invariants: the balances sum to
 * what was loaded, and no account points to itself.
 */
public final class HopsFactory implements WorkloadFactory {
    static final int BALANCE = 0, NEXT = 8, RECORD_BYTES = 16;
    static final long INITIAL = 1_000;

    @Override public String name() { return "test-hops"; }
    @Override public String description() { return "TEST ONLY: two-round transactions with a data-dependent second key"; }

    @Override
    public List<Param> parameters() {
        return List.of(Param.ofInt("accounts", 60, 2, 1_000_000, "accounts in the cluster"),
                Param.ofInt("peek_percent", 20, 0, 100, "share of read-only Peek transactions"));
    }

    @Override public Workload create(WorkloadSetup s) { return new Hops(s.i("accounts"), s.i("peek_percent")); }

    static final class Hops implements Workload {
        final long accounts;
        final int peekPercent;
        Table table;

        Hops(long accounts, int peekPercent) {
            this.accounts = accounts;
            this.peekPercent = peekPercent;
        }

        @Override public List<TableSpec> tables() { return List.of(new TableSpec("hop_accounts", RECORD_BYTES, accounts, Partitioner.HASH)); }
        @Override public List<String> txnTypes() { return List.of("Hop", "Peek"); }

        long other(long a, long pick) {
            long b = Long.remainderUnsigned(pick, accounts);
            return b == a ? (a + 1) % accounts : b;
        }

        @Override
        public void load(Store store, long seed) {
            table = store.table("hop_accounts");
            byte[] rec = new byte[RECORD_BYTES];
            for (long a = 0; a < accounts; a++) {
                Bytes.putLong(rec, BALANCE, INITIAL);
                Bytes.putLong(rec, NEXT, other(a, Hashing.mix(seed, a)));
                store.load(table, a, rec);
            }
        }

        @Override
        public TxnGenerator generator(CoroutineContext ctx) {
            SplittableRandom rng = ctx.rng;
            return new TxnGenerator() {
                int type;
                long a, repoint;

                @Override
                public int next() {
                    type = rng.nextInt(100) < peekPercent ? 1 : 0;
                    a = rng.nextLong(accounts);
                    repoint = rng.nextLong();
                    return type;
                }

                @Override
                public void execute(Tx tx) {
                    if (type == 1) {
                        int ha = tx.read(table, a);
                        tx.fetch();
                        tx.read(table, tx.get(ha, NEXT));
                        tx.fetch();
                        return;
                    }
                    int ha = tx.readForUpdate(table, a);
                    tx.fetch();
                    int hb = tx.readForUpdate(table, tx.get(ha, NEXT));
                    tx.fetch();
                    tx.put(ha, BALANCE, tx.get(ha, BALANCE) - 1);
                    tx.put(hb, BALANCE, tx.get(hb, BALANCE) + 1);
                    tx.put(ha, NEXT, other(a, repoint));
                }
            };
        }

        @Override
        public Map<String, Boolean> checkInvariants(Store store) {
            long[] sum = {0};
            boolean[] selfLoop = {false};
            store.forEach(table, (node, key, off) -> {
                sum[0] += table.getField(store.fabric().memory(node), off, BALANCE);
                if (table.getField(store.fabric().memory(node), off, NEXT) == key) selfLoop[0] = true;
            });
            Map<String, Boolean> m = new LinkedHashMap<>();
            m.put("total_balance", sum[0] == accounts * INITIAL);
            m.put("no_self_pointer", !selfLoop[0]);
            return m;
        }
    }
}
