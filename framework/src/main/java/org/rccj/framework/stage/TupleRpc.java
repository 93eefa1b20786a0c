package org.rccj.framework.stage;

import java.util.Arrays;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
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
 * A stage whose artifact sends one message per record instead ({@link #onePerItem}) sends one RPC per
 * selected access, flushed together.
 *
 * <p>Request: COUNT word, then per item TABLE, KEY, OFFSET, ARG0, ARG1 and the request payload (8-aligned).
 * Reply: per item R0, R1 and the reply payload (8-aligned).
 */
public abstract class TupleRpc {
    public static final int REQ_COUNT = 0, REQ_ITEMS = 8;
    public static final int ITEM_TABLE = 0, ITEM_KEY = 8, ITEM_OFFSET = 16, ITEM_ARG0 = 24, ITEM_ARG1 = 32, ITEM_BYTES = 40;
    public static final int REPLY_R0 = 0, REPLY_R1 = 8, REPLY_BYTES = 16;

    protected final ClusterView cluster;
    private final int handler;
    // caller-side scratch: one instance is used by one coroutine at a time (see Caller)

    protected TupleRpc(ClusterView cluster, String name) {
        this.cluster = cluster;
        this.handler = cluster.register(name, this::handle);
        this.wires = new Wire[cluster.nodes()][cluster.threads()];
    }

    /**
     * True when the stage sends one message per item instead of one batched message per destination (OCC's
     * RPC COMMIT: {@code write_back_oneshot} appends one request per written record and flushes them together,
     * occ.cc:337-363).
     */
    protected boolean onePerItem() { return false; }

    /** Bytes of request payload per item of table {@code t} (e.g. a record to install). */
    protected int requestPayload(Table t) { return 0; }

    /** Bytes of reply payload per item of table {@code t} (e.g. a tuple image). */
    protected int replyPayload(Table t) { return 0; }

    /**
     * Server side, per item, on the owner node: reads the item through {@code q} (its key, offset, ARG0, ARG1 and
     * payload) and writes R0/R1 and the reply payload through {@code out}, both positioned at this item.
     * @param t the item's table ({@code q.table()} resolved)
     */
    protected abstract void serve(RpcWorker w, Table t, Request q, Reply out);

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
        call(ctx, s, tx, from, to, items, false);
    }

    /**
     * As {@link #call(CoroutineContext, Caller, Tx, int, int, Items)}; with {@code passive} (and a fabric that
     * carries passive RPCs, {@link org.rccj.primitives.Endpoint#passiveRpc}) the RPCs go unsignaled: no reply,
     * no wait, every item gets {@link Items#result} with zero words and no payload at once (for stages whose
     * replies carry nothing to decide), and the fabric learns their completion from a later one.
     */
    public void call(CoroutineContext ctx, Caller s, Tx tx, int from, int to, Items items, boolean passive) {
        passive &= ctx.passiveRpc();
        int n = 0;
        for (int i = from; i < to; i++) {
            if (items.selected(tx.access(i))) {
                if (n == s.selected.length) s.selected = Arrays.copyOf(s.selected, n * 2);
                s.selected[n++] = i;
            }
        }
        if (n == 0) return;
        boolean single = onePerItem();
        int nOps = 0;
        for (int k = 0; k < n; k++) {
            int node = tx.access(s.selected[k]).node;
            boolean seen = false;
            for (int j = 0; j < nOps && !single; j++) if (s.ops[j].node == node) { seen = true; break; }
            if (seen) continue;
            int end = single ? k + 1 : n;      // the items this message carries: [k, end) on its node
            int bytes = REQ_ITEMS, count = 0;
            for (int m = k; m < end; m++) {
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
            for (int m = k; m < end; m++) {
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
            if (nOps == s.ops.length) s.ops = Arrays.copyOf(s.ops, nOps * 2);
            s.ops[nOps++] = op;
            ctx.add(passive ? op.unsignaled() : op);
        }
        if (passive) {
            ctx.flush();
            for (int m = 0; m < n; m++) items.result(tx.access(s.selected[m]), 0, 0, null, 0);
            return;
        }
        ctx.flushAndWait();
        for (int j = 0; j < nOps; j++) {
            Op op = s.ops[j];
            int r = 0;
            for (int m = single ? j : 0; m < (single ? j + 1 : n); m++) {
                Access a = tx.access(s.selected[m]);
                if (a.node != op.node) continue;
                items.result(a, Bytes.getLong(op.reply, r + REPLY_R0), Bytes.getLong(op.reply, r + REPLY_R1),
                        op.reply, r + REPLY_BYTES);
                r += REPLY_BYTES + Bytes.align8(replyPayload(a.table));
            }
        }
    }

    /**
     * Reads one request: {@link #wrap} it, {@link #count} its items, then per item its words and payload,
     * {@link #next} to the following item. Owned by one worker (handlers do not share one across threads).
     */
    public static final class Request {
        private byte[] d;
        private int p;

        public Request wrap(byte[] data) {
            d = data;
            p = REQ_ITEMS;
            return this;
        }

        public int count() { return (int) Bytes.getLong(d, REQ_COUNT); }
        public int table() { return (int) Bytes.getLong(d, p + ITEM_TABLE); }
        public long key() { return Bytes.getLong(d, p + ITEM_KEY); }
        public long offset() { return Bytes.getLong(d, p + ITEM_OFFSET); }
        public long arg0() { return Bytes.getLong(d, p + ITEM_ARG0); }
        public long arg1() { return Bytes.getLong(d, p + ITEM_ARG1); }
        public byte[] data() { return d; }
        /** Where the current item's payload starts in {@link #data}. */
        public int payload() { return p + ITEM_BYTES; }

        /** Moves to the next item; the current one carries {@code payloadBytes} of payload. */
        public void next(int payloadBytes) { p += ITEM_BYTES + Bytes.align8(payloadBytes); }
    }

    /**
     * Writes one reply: {@link #wrap} it, then per item R0, R1 and the payload, {@link #next} to the following
     * item. {@link #at} names the current item for a reply completed later ({@link #r1(byte[], int, long)}).
     */
    public static final class Reply {
        private byte[] d;
        private int r;

        public Reply wrap(byte[] reply) {
            d = reply;
            r = 0;
            return this;
        }

        /** Offset of the current item's reply words. */
        public int at() { return r; }
        /** The reply buffer (for a payload written by copy: at {@link #payload()}). */
        public byte[] data() { return d; }
        public void r0(long v) { Bytes.putLong(d, r + REPLY_R0, v); }
        public void r1(long v) { Bytes.putLong(d, r + REPLY_R1, v); }
        /** Where the current item's payload starts. */
        public int payload() { return r + REPLY_BYTES; }

        /** Moves to the next item; the current one carries {@code payloadBytes} of payload. */
        public void next(int payloadBytes) { r += REPLY_BYTES + Bytes.align8(payloadBytes); }

        /** Sets R1 of the item whose reply is at {@code at} (see {@link #at}). */
        public static void r1(byte[] reply, int at, long v) { Bytes.putLong(reply, at + REPLY_R1, v); }

        /** Where the payload of the item whose reply is at {@code at} starts. */
        public static int payload(int at) { return at + REPLY_BYTES; }
    }

    /** A worker's request and reply flyweights (each worker handles one request at a time). */
    protected static final class Wire {
        public final Request request = new Request();
        public final Reply reply = new Reply();
    }

    private final Wire[][] wires;

    /** The flyweights of worker {@code w}. */
    protected final Wire wire(RpcWorker w) {
        Wire[] ws = wires[w.node];
        if (w.index >= ws.length) return new Wire();          // a worker beyond the fabric's threads (none today)
        Wire x = ws[w.index];
        if (x == null) ws[w.index] = x = new Wire();
        return x;
    }

    /** Bytes of the reply to request {@code data}: R0, R1 and the reply payload per item. */
    protected final int replyBytes(Request q, byte[] data) {
        int n = q.wrap(data).count(), bytes = 0;
        for (int i = 0; i < n; i++) {
            Table t = cluster.store.table(q.table());
            bytes += REPLY_BYTES + Bytes.align8(replyPayload(t));
            q.next(requestPayload(t));
        }
        return bytes;
    }

    /**
     * Server side of one call: runs {@link #serve} for every item and replies at once. A stage whose
     * handler must defer its reply (a lock wait queue) overrides this, reads the request with a
     * {@link Request} and replies with {@code w.reply(call)} when every item is decided.
     */
    protected void handle(RpcWorker w, Op call) {
        Wire x = wire(w);
        Request q = x.request;
        Reply out = x.reply.wrap(call.replyBuffer(replyBytes(q, call.data)));
        int count = q.wrap(call.data).count();
        long tupleCost = w.profile().tupleOpNs;
        for (int i = 0; i < count; i++) {
            Table t = cluster.store.table(q.table());
            w.charge(tupleCost);
            serve(w, t, q, out);
            q.next(requestPayload(t));
            out.next(replyPayload(t));
        }
        w.reply(call);
    }
}
