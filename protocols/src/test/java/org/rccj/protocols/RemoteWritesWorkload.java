package org.rccj.protocols;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

/**
 * Test-only workload "remote-writes": every transaction increments one counter on another node and, with
 * {@code reads: 1}, reads one more there; each coroutine has its own keys, so nothing conflicts and every
 * operation a run counts belongs to a commit (for tests that count a stage's round trips). Invariant
 * {@code counters}: the counters sum to the committed increments.
 */
public final class RemoteWritesWorkload implements WorkloadFactory {
    static final int VALUE = 0, RECORD_BYTES = 8, KEYS_PER_COROUTINE = 3;

    @Override public String name() { return "remote-writes"; }
    @Override public String description() { return "TEST ONLY: conflict-free single-key writes (and reads) on another node"; }
    @Override public List<Param> parameters() {
        return List.of(Param.ofInt("reads", 0, 0, 1, "keys read besides the one written"),
                Param.ofInt("writes", 1, 1, 2, "keys written (all on one other node when the cluster has 2 nodes)"));
    }

    @Override
    public Workload create(WorkloadSetup s) {
        int reads = s.i("reads"), writes = s.i("writes");
        int coroutines = s.cluster().workers() * s.cluster().coroutines();
        long keys = 64L * coroutines;
        return new Workload() {
            Table items;
            final long[] increments = new long[coroutines];

            @Override public List<TableSpec> tables() { return List.of(new TableSpec("items", RECORD_BYTES, keys, Partitioner.HASH)); }
            @Override public List<String> txnTypes() { return List.of("RemoteWrite"); }

            @Override
            public void load(Store store, long seed) {
                items = store.table("items");
                byte[] rec = new byte[RECORD_BYTES];
                for (long k = 0; k < keys; k++) store.load(items, k, rec);
            }

            @Override
            public TxnGenerator generator(CoroutineContext ctx) {
                // this coroutine's keys: k = id (mod coroutines), owned by another node
                int id = (ctx.node * s.cluster().threads() + ctx.worker().index) * s.cluster().coroutines() + ctx.index;
                long[] own = new long[KEYS_PER_COROUTINE];
                int n = 0;
                for (long k = id; k < keys && n < own.length; k += coroutines) {
                    if (items.nodeOf(k, ctx.cluster().nodes()) != ctx.node) own[n++] = k;
                }
                if (n < own.length) throw new IllegalStateException("coroutine " + id + " found no remote keys");
                return new TxnGenerator() {
                    @Override public int next() { return 0; }

                    @Override
                    public void execute(Tx tx) {
                        int h = tx.readForUpdate(items, own[0]);
                        int h2 = writes > 1 ? tx.readForUpdate(items, own[2]) : -1;
                        if (reads > 0) tx.read(items, own[1]);
                        tx.fetch();
                        tx.put(h, VALUE, tx.get(h, VALUE) + 1);
                        if (h2 >= 0) tx.put(h2, VALUE, tx.get(h2, VALUE) + 1);
                    }

                    @Override public void committed(Tx tx) { increments[id] += writes; }
                };
            }

            @Override
            public Map<String, Boolean> checkInvariants(Store store) {
                long sum = 0, expected = 0;
                for (long k = 0; k < keys; k++) sum += store.field(items, k, VALUE);
                for (long c : increments) expected += c;
                Map<String, Boolean> m = new LinkedHashMap<>();
                m.put("counters", sum == expected);
                return m;
            }
        };
    }
}
