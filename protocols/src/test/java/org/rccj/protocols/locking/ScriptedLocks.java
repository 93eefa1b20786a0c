package org.rccj.protocols.locking;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.spi.WorkloadSetup;
import org.rccj.framework.store.Partitioner;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;

/**
 * Scripted conflicts on one hot counter (a key of table {@code items} owned by {@code hot_node}). Every
 * scripted transaction reads the counter for update and increments it; coroutines without a part sleep.
 * Roles go by (node, worker, coroutine) so a script is the same on every run.
 * <ul>
 * <li>{@code wait-die}, on node 0 worker 0: coroutine 1 (HOLDER) starts at 1 us, locks the counter at once and
 * keeps it {@code hold_us}; coroutine 0 (OLDER) starts first but asks for the counter only at 5 us, so it
 * meets the younger holder; coroutine 2 (YOUNGER) starts at 2 us and asks at 8 us, meeting an older holder.
 * Under wait-die OLDER waits and commits without an abort, YOUNGER dies until both are done.</li>
 * <li>{@code starvation}: node 0 worker 0 coroutine 0 (OLDEST) starts at 0 and asks for the counter at 10 us;
 * every other coroutine streams short transactions (hold {@code hold_us}) on the counter until
 * {@code stream_us}. All streamers are younger than OLDEST, so whenever the counter is free and OLDEST waits,
 * a fair wait-die must let OLDEST in.</li>
 * </ul>
 * Invariant {@code counter}: the counter equals the number of committed increments. The script's outcome is
 * reported beside it: {@code order_holder_older_younger} (wait-die: the values the roles read show HOLDER, OLDER,
 * YOUNGER committed in this order) and {@code oldest_committed} (starvation).
 */
public final class ScriptedLocks implements Workload {
    static final int VALUE = 0, RECORD_BYTES = 8, KEYS = 64;
    static final List<String> TYPES = List.of("Idle", "Older", "Holder", "Younger", "Oldest", "Stream");
    static final int IDLE = 0, OLDER = 1, HOLDER = 2, YOUNGER = 3, OLDEST = 4, STREAM = 5;

    final String script;
    final int hotNode;
    final long holdNs, streamNs;
    Table items;
    long hotKey = -1;
    private final List<Gen> generators = new ArrayList<>();

    ScriptedLocks(WorkloadSetup s) {
        script = s.s("script");
        hotNode = s.i("hot_node");
        holdNs = Math.round(s.d("hold_us") * 1000);
        streamNs = Math.round(s.d("stream_us") * 1000);
        if (hotNode >= s.cluster().nodes()) throw new IllegalArgumentException("hot_node " + hotNode + " >= nodes");
    }

    @Override public List<TableSpec> tables() { return List.of(new TableSpec("items", RECORD_BYTES, KEYS, Partitioner.HASH)); }
    @Override public List<String> txnTypes() { return TYPES; }

    @Override
    public void load(Store store, long seed) {
        items = store.table("items");
        byte[] rec = new byte[RECORD_BYTES];
        for (long k = 0; k < KEYS; k++) {
            store.load(items, k, rec);
            if (hotKey < 0 && items.nodeOf(k, store.nodes()) == hotNode) hotKey = k;
        }
        if (hotKey < 0) throw new IllegalStateException("no key on node " + hotNode);
    }

    @Override
    public TxnGenerator generator(CoroutineContext ctx) {
        Gen g = new Gen(ctx);
        generators.add(g);
        return g;
    }

    /** The counter value the role read in its committed transaction, -1 if it did not commit. */
    private long readBy(int role) {
        for (Gen g : generators) if (g.role == role) return g.readAtCommit;
        return -1;
    }

    @Override
    public Map<String, Boolean> checkInvariants(Store store) {
        long increments = 0;
        for (Gen g : generators) increments += g.increments;
        Map<String, Boolean> m = new LinkedHashMap<>();
        m.put("counter", store.field(items, hotKey, VALUE) == increments);
        if (script.equals("wait-die")) {
            // what the script's outcome is under wait-die: HOLDER, then OLDER (which waited), then YOUNGER (which died until then)
            m.put("order_holder_older_younger", readBy(HOLDER) == 0 && readBy(OLDER) == 1 && readBy(YOUNGER) == 2);
        } else {
            m.put("oldest_committed", readBy(OLDEST) >= 0);
        }
        return m;
    }

    private final class Gen implements TxnGenerator {
        final CoroutineContext ctx;
        final int role;
        /** Index of the next step of the script: 0 = a warm-up pause, 1 = the scripted transaction, 2 = done. */
        int step;
        long readAtCommit = -1, increments, lastRead;

        Gen(CoroutineContext ctx) {
            this.ctx = ctx;
            boolean lead = ctx.node == 0 && ctx.worker().index == 0;
            if (script.equals("wait-die")) {
                role = !lead ? IDLE : switch (ctx.index) {
                    case 0 -> OLDER;
                    case 1 -> HOLDER;
                    case 2 -> YOUNGER;
                    default -> IDLE;
                };
            } else {
                role = lead && ctx.index == 0 ? OLDEST : STREAM;
            }
            // OLDER and OLDEST start at once (they must be the oldest); the others after a pause
            step = role == OLDER || role == OLDEST ? 1 : 0;
        }

        @Override
        public int next() {
            if (step == 0) return IDLE;
            if (step == 1 && role != IDLE) {
                if (role == STREAM && ctx.now() >= streamNs) return IDLE;
                return role;
            }
            return IDLE;
        }

        private void pause(long ns) { if (ns > 0) ctx.sleep(ns); }

        @Override
        public void execute(Tx tx) {
            long now = ctx.now();
            if (step == 0) {                    // warm-up pause: who starts later is younger
                pause(switch (role) {
                    case HOLDER -> 1_000;
                    case YOUNGER -> 2_000;
                    case STREAM -> 500 + 100L * ctx.index;
                    default -> ctx.endTime() - now;
                });
                return;
            }
            if (step > 1 || role == IDLE || (role == STREAM && now >= streamNs)) {
                pause(Math.max(ctx.endTime() - now, 1));
                return;
            }
            long askAt = switch (role) {
                case OLDER -> 5_000;
                case YOUNGER -> 8_000;
                case OLDEST -> 10_000;
                default -> 0;
            };
            pause(askAt - now);
            int h = tx.readForUpdate(items, hotKey);
            tx.fetch();
            lastRead = tx.get(h, VALUE);
            if (role == HOLDER || role == STREAM) pause(holdNs);
            tx.put(h, VALUE, lastRead + 1);
        }

        @Override
        public void committed(Tx tx) {
            if (step == 1 && tx.size() > 0) {
                increments++;
                readAtCommit = lastRead;
                if (role != STREAM) step = 2;
            } else if (step == 0) {
                step = 1;
            }
        }
    }
}
