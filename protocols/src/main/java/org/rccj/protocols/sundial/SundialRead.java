package org.rccj.protocols.sundial;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * READ stage: read the tuple, then re-read its header once that READ completed, and decide with
 * {@link SundialTuple#acceptRead}. One-sided: a tuple READ ({@link TupleFetch}: location cache or hash
 * index), then a header READ in a later doorbell (one posted in the same batch could overlap a torn tuple
 * READ and prove nothing); a disagreement re-reads both. RPC: the handler does both reads on its memory,
 * repeating until they agree, and returns both images.
 */
final class SundialRead {
    /** Bounds the rounds of one READ stage before giving up with {@code read_unstable}. */
    static final int MAX_ROUNDS = 32;
    /**
     * Pause before re-reading a tuple that changed under the double read: a local tuple is read without
     * yielding, so without a pause the writer (remote, or a coroutine of this worker) could not finish.
     */
    static final long RETRY_PAUSE_NS = 200;
    /** Attempts of the RPC handler before it answers "changed, ask again" (it must not spin on a writer). */
    static final int HANDLER_ATTEMPTS = 4;
    /** RPC reply: R0 = tuple offset (negative: absent), R1 = whether the two reads agreed. */
    static final long RPC_STABLE = 1, RPC_UNSTABLE = 0;

    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "sundial.read"); }

        /** The tuple image, then the header re-read. */
        @Override protected int replyPayload(Table t) { return t.tupleBytes + SundialTuple.HEADER_BYTES; }

        @Override
        protected void serve(Worker w, Table t, long key, long offset, long a0, long a1, byte[] req, int rp, byte[] reply, int r) {
            long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            Bytes.putLong(reply, r + REPLY_R0, off);
            Bytes.putLong(reply, r + REPLY_R1, RPC_UNSTABLE);
            if (off < 0) return;
            int img = r + REPLY_BYTES, hdr = img + t.tupleBytes;
            for (int attempt = 0; attempt < HANDLER_ATTEMPTS; attempt++) {
                w.memory.read(t.region(), off, reply, img, t.tupleBytes);
                VarHandle.acquireFence();
                w.memory.read(t.region(), off, reply, hdr, SundialTuple.HEADER_BYTES);
                VarHandle.acquireFence();
                if (SundialTuple.stable(reply, img, reply, hdr)) {
                    Bytes.putLong(reply, r + REPLY_R1, RPC_STABLE);
                    return;
                }
            }
        }
    }

    private static final int STEP_TUPLE = 0, STEP_HEADER = 1, STEP_DONE = 2;

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final TupleFetch fetch;
    private final SundialCounters counters;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    // per access of the current range (index - from): header re-read, next step, ops in flight
    private byte[][] hdr = new byte[0][];
    private int[] step = new int[8];
    private Op[] ops = new Op[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return step[(int) a.meta1] != STEP_DONE; }

        @Override
        public void result(Access a, long off, long stable, byte[] reply, int p) {
            int k = (int) a.meta1;
            if (off < 0) {
                a.absent = true;
                step[k] = STEP_DONE;
                return;
            }
            a.offset = off;
            ctx.cache().put(a.table.id, a.key, off);
            if (stable != RPC_STABLE) return;                               // ask again after a pause
            step[k] = STEP_DONE;
            System.arraycopy(reply, p, a.image, 0, a.table.tupleBytes);
            System.arraycopy(reply, p + a.table.tupleBytes, hdr[k], 0, SundialTuple.HEADER_BYTES);
        }
    };

    SundialRead(CoroutineContext ctx, Rpc rpc, TupleFetch fetch, SundialCounters counters) {
        this.ctx = ctx;
        this.rpc = rpc;
        this.fetch = fetch;
        this.counters = counters;
    }

    private void ensure(int n) {
        if (hdr.length < n) {
            int old = hdr.length;
            hdr = Arrays.copyOf(hdr, Math.max(n, old * 2));
            for (int i = old; i < hdr.length; i++) hdr[i] = new byte[SundialTuple.HEADER_BYTES];
        }
        if (step.length < n) {
            step = Arrays.copyOf(step, Math.max(n, step.length * 2));
            ops = Arrays.copyOf(ops, step.length);
        }
    }

    /** Reads accesses {@code [from, to)}. */
    void run(Tx tx, int from, int to, boolean oneSided) {
        int n = to - from;
        ensure(n);
        if (oneSided) readOneSided(tx, from, n);
        else readRpc(tx, from, n);
    }

    private int accept(Access a, int k) {
        int r = SundialTuple.acceptRead(a, a.image, hdr[k]);
        if (r == SundialTuple.READ_OK_LOCKED) counters.readsOfLocked++;
        return r;
    }

    private void readRpc(Tx tx, int from, int n) {
        for (int k = 0; k < n; k++) {
            tx.access(from + k).meta1 = k;                                  // scratch until accepted: its index here
            step[k] = STEP_HEADER;                                          // not yet read consistently
        }
        for (int round = 1; ; round++) {
            rpc.call(ctx, caller, tx, from, from + n, items);
            ctx.release();
            int pending = 0;
            for (int k = 0; k < n; k++) if (step[k] != STEP_DONE) pending++;
            if (pending == 0) break;
            if (round == MAX_ROUNDS) throw SundialTuple.READ_UNSTABLE;
            counters.readRetries += pending;
            ctx.sleep(RETRY_PAUSE_NS);
        }
        for (int k = 0; k < n; k++) {
            Access a = tx.access(from + k);
            if (a.absent) throw SundialTuple.NOT_FOUND;
            if (accept(a, k) == SundialTuple.READ_UNSTABLE_RETRY) throw new IllegalStateException("a stable RPC read failed the double-read check");
        }
    }

    private void readOneSided(Tx tx, int from, int n) {
        fetch.fetch(tx, from, from + n, true, false);                       // the tuple READ of every access
        for (int k = 0; k < n; k++) {
            if (tx.access(from + k).absent) throw SundialTuple.NOT_FOUND;
            step[k] = STEP_HEADER;
        }
        int left = n;
        boolean reread = false;
        for (int round = 0; left > 0; round++) {
            if (reread) ctx.sleep(RETRY_PAUSE_NS);
            reread = false;
            if (round == MAX_ROUNDS) throw SundialTuple.READ_UNSTABLE;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(from + k);
                if (step[k] == STEP_TUPLE) {
                    ops[k] = ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes);
                    ctx.add(ops[k]);
                } else if (step[k] == STEP_HEADER) {
                    ops[k] = ctx.op().read(a.node, a.table.region(), a.offset, SundialTuple.HEADER_BYTES);
                    ctx.add(ops[k]);
                }
            }
            ctx.flushAndWait();
            for (int k = 0; k < n; k++) {
                Access a = tx.access(from + k);
                if (step[k] == STEP_TUPLE) {
                    byte[] d = ops[k].data;
                    if (Table.keyOf(d) != a.key) throw new IllegalStateException("tuple of " + a.table.name + "#" + a.key + " moved");
                    System.arraycopy(d, 0, a.image, 0, a.table.tupleBytes);
                    step[k] = STEP_HEADER;
                } else if (step[k] == STEP_HEADER) {
                    System.arraycopy(ops[k].data, 0, hdr[k], 0, SundialTuple.HEADER_BYTES);
                    if (accept(a, k) == SundialTuple.READ_UNSTABLE_RETRY) {
                        counters.readRetries++;
                        step[k] = STEP_TUPLE;
                        reread = true;
                    } else {
                        step[k] = STEP_DONE;
                        left--;
                    }
                }
            }
            ctx.release();
        }
    }
}
