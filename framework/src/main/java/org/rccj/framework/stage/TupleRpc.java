package org.rccj.framework.stage;

import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * The two-sided half of a stage that works tuple by tuple: the caller batches every selected access of
 * a transaction into one RPC per destination node (FaSST-style), the handler on that node runs
 * {@link #serve} for each item against its own memory — with the same atomics the one-sided half uses —
 * and the caller gets each item's two result words (and optional payload) back in {@link Items#result}.
 *
 * <p>Request: COUNT word, then per item TABLE, KEY, OFFSET, ARG0, ARG1 and the request payload (8-aligned).
 * Reply: per item R0, R1 and the reply payload (8-aligned).
 */
public abstract class TupleRpc {
    public static final int REQ_COUNT = 0, REQ_ITEMS = 8;
    public static final int ITEM_TABLE = 0, ITEM_KEY = 8, ITEM_OFFSET = 16, ITEM_ARG0 = 24, ITEM_ARG1 = 32, ITEM_BYTES = 40;
    public static final int REPLY_R0 = 0, REPLY_R1 = 8, REPLY_BYTES = 16;

    protected final Cluster cluster;
    private final int handler;
    // caller-side scratch: one instance is used by one coroutine at a time (see Caller)

    protected TupleRpc(Cluster cluster, String name) {
        this.cluster = cluster;
        this.handler = cluster.register(name, this::handle);
    }

    /** Bytes of request payload per item of table {@code t} (e.g. a record to install). */
    protected int requestPayload(Table t) { return 0; }

    /** Bytes of reply payload per item of table {@code t} (e.g. a tuple image). */
    protected int replyPayload(Table t) { return 0; }

    /**
     * Server side, per item, on the owner node: writes R0/R1 at {@code reply[r]} and the payload after them.
     * @param req the request; the item's payload starts at {@code reqPayload}
     */
    protected abstract void serve(Worker w, Table t, long key, long offset, long arg0, long arg1,
                                  byte[] req, int reqPayload, byte[] reply, int r);

    /** Caller side of one stage: which accesses, their arguments, and what to do with the results. */
    public interface Items {
        boolean selected(Access a);
        default long arg0(Access a) { return 0; }
        default long arg1(Access a) { return 0; }
        default void payload(Access a, byte[] dst, int off) {}
        void result(Access a, long r0, long r1, byte[] reply, int payloadOff);
    }

    /** Per-coroutine caller scratch (keeps calls allocation-free). */
    public static final class Caller {
        private int[] selected = new int[16];
        private Op[] ops = new Op[8];
    }

    /** Sends one RPC per destination with every selected access in {@code [from, to)}, waits, scatters results. */
    public void call(CoroutineContext ctx, Caller s, Tx tx, int from, int to, Items items) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (items.selected(tx.access(i))) {
                if (n == s.selected.length) s.selected = java.util.Arrays.copyOf(s.selected, n * 2);
                s.selected[n++] = i;
            }
        }
        if (n == 0) return;
        int nOps = 0;
        for (int k = 0; k < n; k++) {
            int node = tx.access(s.selected[k]).node;
            boolean seen = false;
            for (int j = 0; j < nOps; j++) if (s.ops[j].node == node) { seen = true; break; }
            if (seen) continue;
            int bytes = REQ_ITEMS, count = 0;
            for (int m = k; m < n; m++) {
                Access a = tx.access(s.selected[m]);
                if (a.node == node) {
                    bytes += ITEM_BYTES + Bytes.align8(requestPayload(a.table));
                    count++;
                }
            }
            Op op = ctx.op().rpc(node, handler, bytes);
            byte[] d = op.data;
            Bytes.putLong(d, REQ_COUNT, count);
            int p = REQ_ITEMS;
            for (int m = k; m < n; m++) {
                Access a = tx.access(s.selected[m]);
                if (a.node != node) continue;
                Bytes.putLong(d, p + ITEM_TABLE, a.table.id);
                Bytes.putLong(d, p + ITEM_KEY, a.key);
                Bytes.putLong(d, p + ITEM_OFFSET, a.offset);
                Bytes.putLong(d, p + ITEM_ARG0, items.arg0(a));
                Bytes.putLong(d, p + ITEM_ARG1, items.arg1(a));
                items.payload(a, d, p + ITEM_BYTES);
                p += ITEM_BYTES + Bytes.align8(requestPayload(a.table));
            }
            if (nOps == s.ops.length) s.ops = java.util.Arrays.copyOf(s.ops, nOps * 2);
            s.ops[nOps++] = op;
            ctx.add(op);
        }
        ctx.flushAndWait();
        for (int j = 0; j < nOps; j++) {
            Op op = s.ops[j];
            int r = 0;
            for (int m = 0; m < n; m++) {
                Access a = tx.access(s.selected[m]);
                if (a.node != op.node) continue;
                items.result(a, Bytes.getLong(op.reply, r + REPLY_R0), Bytes.getLong(op.reply, r + REPLY_R1),
                        op.reply, r + REPLY_BYTES);
                r += REPLY_BYTES + Bytes.align8(replyPayload(a.table));
            }
        }
    }

    /**
     * Server side of one call: runs {@link #serve} for every item and replies at once. A stage whose
     * handler must defer its reply (a lock wait queue) overrides this, parses the request with the
     * {@code REQ_}/{@code ITEM_} layout and replies with {@code w.reply(call)} when every item is decided.
     */
    protected void handle(Worker w, Op call) {
        byte[] d = call.data;
        int count = (int) Bytes.getLong(d, REQ_COUNT);
        int replyBytes = 0;
        int p = REQ_ITEMS;
        for (int i = 0; i < count; i++) {
            Table t = cluster.store.table((int) Bytes.getLong(d, p + ITEM_TABLE));
            replyBytes += REPLY_BYTES + Bytes.align8(replyPayload(t));
            p += ITEM_BYTES + Bytes.align8(requestPayload(t));
        }
        byte[] reply = call.replyBuffer(replyBytes);
        p = REQ_ITEMS;
        int r = 0;
        long tupleCost = w.ep.profile().tupleOpNs;
        for (int i = 0; i < count; i++) {
            Table t = cluster.store.table((int) Bytes.getLong(d, p + ITEM_TABLE));
            w.charge(tupleCost);
            serve(w, t, Bytes.getLong(d, p + ITEM_KEY), Bytes.getLong(d, p + ITEM_OFFSET),
                    Bytes.getLong(d, p + ITEM_ARG0), Bytes.getLong(d, p + ITEM_ARG1), d, p + ITEM_BYTES, reply, r);
            p += ITEM_BYTES + Bytes.align8(requestPayload(t));
            r += REPLY_BYTES + Bytes.align8(replyPayload(t));
        }
        w.reply(call);
    }
}
