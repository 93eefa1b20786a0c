package org.rccj.protocols.mvcc;

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
 * READ stage: three transport steps, then {@link MvccTuple#acceptRead} on what they saw.
 * (1) read the whole tuple; (2) raise rts to the transaction's timestamp; (3) re-read the header.
 * One-sided: (1) is a READ (with the hash-index lookup of {@link TupleFetch}); (2)+(3) a CAS on rts and a
 * header READ in one doorbell batch, posted after (1) completed — a READ posted in the same batch as (1)
 * could overlap a torn (1) and prove nothing. A CAS that lost to another reader is retried with the value
 * it found. RPC: the handler does the same three steps on its memory (retrying locally until the two
 * reads agree) and returns both images.
 */
final class MvccRead {
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
        private final MvccTuple tuple;

        Rpc(Cluster c, MvccTuple tuple) {
            super(c, "mvcc.read");
            this.tuple = tuple;
        }

        /** The tuple image, then the header re-read. */
        @Override protected int replyPayload(Table t) { return t.tupleBytes + tuple.headerBytes; }

        @Override
        protected void serve(Worker w, Table t, long key, long offset, long ts, long a1, byte[] req, int rp, byte[] reply, int r) {
            long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            Bytes.putLong(reply, r + REPLY_R0, off);
            Bytes.putLong(reply, r + REPLY_R1, RPC_UNSTABLE);
            if (off < 0) return;
            int img = r + REPLY_BYTES, hdr = img + t.tupleBytes;
            for (int attempt = 0; attempt < HANDLER_ATTEMPTS; attempt++) {
                w.memory.read(t.region(), off, reply, img, t.tupleBytes);
                VarHandle.acquireFence();
                tuple.raiseRts(w.memory, t.region(), off, ts);
                w.memory.read(t.region(), off, reply, hdr, tuple.headerBytes);
                VarHandle.acquireFence();
                if (tuple.stable(reply, img, reply, hdr)) {
                    Bytes.putLong(reply, r + REPLY_R1, RPC_STABLE);
                    return;
                }
            }
        }
    }

    private final CoroutineContext ctx;
    private final MvccTuple tuple;
    private final Rpc rpc;
    private final TupleFetch fetch;
    private final MvccClock clock;
    private final MvccCounters counters;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private long ts;

    // per access of the current range (index - from): header re-read, rts expected by the next CAS, step
    private byte[][] hdr = new byte[0][];
    private long[] expectRts = new long[8];
    private int[] step = new int[8];
    private Op[] tupleOp = new Op[8], casOp = new Op[8], hdrOp = new Op[8];
    private static final int STEP_TUPLE = 0, STEP_HEADER = 1, STEP_DONE = 2;

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return step[(int) a.meta1] != STEP_DONE; }
        @Override public long arg0(Access a) { return ts; }

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
            System.arraycopy(reply, p + a.table.tupleBytes, hdr[k], 0, tuple.headerBytes);
        }
    };

    MvccRead(CoroutineContext ctx, MvccTuple tuple, Rpc rpc, TupleFetch fetch, MvccClock clock, MvccCounters counters) {
        this.ctx = ctx;
        this.tuple = tuple;
        this.rpc = rpc;
        this.fetch = fetch;
        this.clock = clock;
        this.counters = counters;
    }

    private void ensure(int n) {
        if (hdr.length < n) {
            int old = hdr.length;
            hdr = Arrays.copyOf(hdr, Math.max(n, old * 2));
            for (int i = old; i < hdr.length; i++) hdr[i] = new byte[tuple.headerBytes];
        }
        if (step.length < n) {
            int m = Math.max(n, step.length * 2);
            expectRts = Arrays.copyOf(expectRts, m);
            step = Arrays.copyOf(step, m);
            tupleOp = Arrays.copyOf(tupleOp, m);
            casOp = Arrays.copyOf(casOp, m);
            hdrOp = Arrays.copyOf(hdrOp, m);
        }
    }

    /** Reads accesses {@code [from, to)} at timestamp {@code ts}. */
    void run(Tx tx, int from, int to, long ts, boolean oneSided) {
        this.ts = ts;
        int n = to - from;
        ensure(n);
        if (oneSided) readOneSided(tx, from, n);
        else readRpc(tx, from, n);
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
            if (round == MAX_ROUNDS) throw MvccTuple.READ_UNSTABLE;
            counters.readRetries += pending;
            ctx.sleep(RETRY_PAUSE_NS);
        }
        for (int k = 0; k < n; k++) {
            Access a = tx.access(from + k);
            if (a.absent) throw MvccTuple.NOT_FOUND;
            if (accept(a, k) == MvccTuple.READ_UNSTABLE_RETRY) throw new IllegalStateException("a stable RPC read failed the double-read check");
        }
    }

    private int accept(Access a, int k) {
        clock.observe(tuple.maxTimestamp(hdr[k], 0));
        int r = tuple.acceptRead(a, ts, a.image, hdr[k]);
        if (r == MvccTuple.READ_UNSTABLE_RETRY) return r;
        if ((r & MvccTuple.READ_OLDER) != 0) counters.readsOlderVersion++;
        if ((r & MvccTuple.READ_PAST_LOCK) != 0) counters.readsPastLock++;
        return r;
    }

    private void readOneSided(Tx tx, int from, int n) {
        fetch.fetch(tx, from, from + n, true, false);                       // step 1 for every access
        for (int k = 0; k < n; k++) {
            Access a = tx.access(from + k);
            if (a.absent) throw MvccTuple.NOT_FOUND;
            step[k] = STEP_HEADER;
            expectRts[k] = Bytes.getLong(a.image, tuple.rts);
        }
        int left = n;
        boolean reread = false;
        for (int round = 0; left > 0; round++) {
            if (reread) ctx.sleep(RETRY_PAUSE_NS);
            reread = false;
            if (round == MAX_ROUNDS) throw MvccTuple.READ_UNSTABLE;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(from + k);
                int region = a.table.region();
                if (step[k] == STEP_TUPLE) {
                    tupleOp[k] = ctx.op().read(a.node, region, a.offset, a.table.tupleBytes);
                    ctx.add(tupleOp[k]);
                } else if (step[k] == STEP_HEADER) {
                    casOp[k] = null;
                    if (tuple.needsRtsRaise(expectRts[k], ts)) {
                        casOp[k] = ctx.op().cas(a.node, region, a.offset + tuple.rts, expectRts[k], ts).unsignaled();
                        ctx.add(casOp[k]);
                    }
                    hdrOp[k] = ctx.op().read(a.node, region, a.offset, tuple.headerBytes);
                    ctx.add(hdrOp[k]);
                }
            }
            ctx.flushAndWait();
            for (int k = 0; k < n; k++) {
                Access a = tx.access(from + k);
                if (step[k] == STEP_TUPLE) {
                    byte[] d = tupleOp[k].data;
                    if (Table.keyOf(d) != a.key) throw new IllegalStateException("tuple of " + a.table.name + "#" + a.key + " moved");
                    System.arraycopy(d, 0, a.image, 0, a.table.tupleBytes);
                    expectRts[k] = Bytes.getLong(a.image, tuple.rts);
                    step[k] = STEP_HEADER;
                } else if (step[k] == STEP_HEADER) {
                    Op cas = casOp[k];
                    if (cas != null && !MvccTuple.rtsCovered(expectRts[k], cas.result, ts)) {
                        expectRts[k] = cas.result;                            // another reader raised rts: CAS again
                        counters.rtsCasRetries++;
                        continue;
                    }
                    System.arraycopy(hdrOp[k].data, 0, hdr[k], 0, tuple.headerBytes);
                    if (accept(a, k) == MvccTuple.READ_UNSTABLE_RETRY) {
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
