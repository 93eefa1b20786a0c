package org.rccj.protocols.calvin;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadFactory;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Partitioner;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;

/**
 * TEST ONLY workload "pointers", whose transactions have dependent keys (a second fetch round on keys read in
 * the first), the case CALVIN needs OLLP for. POINTERS[k] holds the account it points to; ACCOUNTS[a] holds a
 * token count. Repoint(k, b): read POINTERS[k] = a, then move one token from ACCOUNTS[a] to ACCOUNTS[b] and point
 * k at b. Follow(k): read POINTERS[k] = a, then ACCOUNTS[a]. Invariants: tokens[a] is the number of pointers at a
 * (a Repoint that acted on a stale pointer breaks it), and no committed Follow saw its account without a token.
 */
public final class PointerWorkloadFactory implements WorkloadFactory {
    static final List<Param> PARAMS = List.of(
            Param.ofInt("pointers", 8, 1, 1 << 20, "pointers"),
            Param.ofInt("accounts", 16, 2, 1 << 20, "accounts"),
            Param.ofDouble("repoint_share", 0.5, 0, 1, "share of Repoint transactions (the rest are Follow)"),
            Param.ofBoolean("pick_forgets_target", false, "a broken replay SPI: the saved pick leaves out Repoint's target"));

    @Override public String name() { return "pointers"; }
    @Override public String description() { return "TEST ONLY: dependent keys (pointer then target) for CALVIN's OLLP"; }
    @Override public List<Param> parameters() { return PARAMS; }
    @Override
    public Workload create(WorkloadSetup s) {
        return new Pointers(s.i("pointers"), s.i("accounts"), s.d("repoint_share"), s.b("pick_forgets_target"));
    }

    static final int VALUE = 0, RECORD = 8;
    static final int REPOINT = 0, FOLLOW = 1;

    static final class Pointers implements Workload {
        final int pointers, accounts;
        final double repointShare;
        final boolean pickForgetsTarget;
        Table ptr, acct;
        final List<Gen> gens = new ArrayList<>();

        Pointers(int pointers, int accounts, double repointShare, boolean pickForgetsTarget) {
            this.pointers = pointers;
            this.accounts = accounts;
            this.repointShare = repointShare;
            this.pickForgetsTarget = pickForgetsTarget;
        }

        @Override
        public List<TableSpec> tables() {
            return List.of(new TableSpec("pointers", RECORD, pointers, Partitioner.HASH), new TableSpec("accounts", RECORD, accounts, Partitioner.HASH));
        }

        @Override public List<String> txnTypes() { return List.of("Repoint", "Follow"); }

        @Override
        public void load(Store store, long seed) {
            ptr = store.table("pointers");
            acct = store.table("accounts");
            byte[] rec = new byte[RECORD];
            long[] tokens = new long[accounts];
            for (int k = 0; k < pointers; k++) {
                Bytes.putLong(rec, VALUE, k % accounts);
                store.load(ptr, k, rec);
                tokens[k % accounts]++;
            }
            for (int a = 0; a < accounts; a++) {
                Bytes.putLong(rec, VALUE, tokens[a]);
                store.load(acct, a, rec);
            }
        }

        @Override
        public TxnGenerator generator(CoroutineContext ctx) {
            Gen g = new Gen(this, ctx.rng);
            gens.add(g);
            return g;
        }

        @Override public TxnGenerator replayer(CoroutineContext ctx) { return new Gen(this, ctx.rng); }

        @Override public int maxPickBytes() { return 16; }

        @Override
        public Map<String, Boolean> checkInvariants(Store store) {
            long[] pointed = new long[accounts];
            for (int k = 0; k < pointers; k++) pointed[(int) store.field(ptr, k, VALUE)]++;
            boolean match = true;
            for (int a = 0; a < accounts; a++) match &= store.field(acct, a, VALUE) == pointed[a];
            long badFollows = 0;
            for (Gen g : gens) badFollows += g.badFollows;
            Map<String, Boolean> m = new LinkedHashMap<>();
            m.put("tokens_match_pointers", match);
            m.put("follow_finds_token", badFollows == 0);
            return m;
        }
    }

    static final class Gen implements TxnGenerator {
        private final Pointers wl;
        private final SplittableRandom rng;
        private int type, k, target;
        private boolean bad;
        long badFollows;

        Gen(Pointers wl, SplittableRandom rng) {
            this.wl = wl;
            this.rng = rng;
        }

        @Override
        public int next() {
            type = rng.nextDouble() < wl.repointShare ? REPOINT : FOLLOW;
            k = rng.nextInt(wl.pointers);
            target = rng.nextInt(wl.accounts);
            return type;
        }

        @Override
        public int savePick(byte[] dst, int off) {
            Bytes.putLong(dst, off, k);
            Bytes.putLong(dst, off + 8, wl.pickForgetsTarget ? 0 : target);
            return 16;
        }

        @Override
        public void loadPick(int type, byte[] src, int off) {
            this.type = type;
            k = (int) Bytes.getLong(src, off);
            target = (int) Bytes.getLong(src, off + 8);
        }

        @Override
        public void execute(Tx tx) {
            bad = false;
            if (type == REPOINT) {
                int p = tx.readForUpdate(wl.ptr, k);
                tx.fetch();
                long from = tx.get(p, VALUE);
                if (from == target) return;
                int a = tx.readForUpdate(wl.acct, from), b = tx.readForUpdate(wl.acct, target);
                tx.fetch();
                tx.put(a, VALUE, tx.get(a, VALUE) - 1);
                tx.put(b, VALUE, tx.get(b, VALUE) + 1);
                tx.put(p, VALUE, target);
            } else {
                int p = tx.read(wl.ptr, k);
                tx.fetch();
                int a = tx.read(wl.acct, tx.get(p, VALUE));
                tx.fetch();
                bad = tx.get(a, VALUE) < 1;
            }
        }

        @Override public void committed(Tx tx) { if (bad) badFollows++; }
    }
}
