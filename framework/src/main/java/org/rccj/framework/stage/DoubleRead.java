package org.rccj.framework.stage;

import java.lang.invoke.VarHandle;
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
 * A READ stage that reads each tuple of the read set twice: the whole tuple, then its header once that READ completed, and
 * lets the protocol decide from both ({@link #accept}) whether the tuple stayed put in between (timestamp
 * protocols: MVCC, SUNDIAL). One-sided: the tuple READ ({@link TupleFetch}: location cache or hash index),
 * then a header READ in a later doorbell — one in the same batch could overlap a torn tuple READ and prove
 * nothing; a disagreement re-reads both after a pause. RPC: the handler does both reads on its memory,
 * repeating until they agree, and returns both images. A protocol may act between the two reads
 * ({@link Rpc#between} on the owner, {@link #beforeHeaderRead} one-sided: MVCC raises rts). Writes are not
 * this stage's: the protocols that use it lock write-set tuples when they are accessed and read them under
 * the lock (their LOCK stage), as RCC's MVCC and SUNDIAL do.
 */
public abstract class DoubleRead {
    /** Bounds the rounds of one READ stage before giving up (the protocol's "unstable" abort). */
    public static final int MAX_ROUNDS = 32;
    /**
     * Pause before re-reading a tuple that changed under the double read: a local tuple is read without
     * yielding, so without a pause the writer (remote, or a coroutine of this worker) could not finish.
     */
    public static final long RETRY_PAUSE_NS = 200;
    /** Attempts of the RPC handler before it answers "changed, ask again" (it must not spin on a writer). */
    public static final int HANDLER_ATTEMPTS = 4;
    /** RPC reply: R0 = tuple offset (negative: absent), R1 = whether the two reads agreed. */
    public static final long RPC_STABLE = 1, RPC_UNSTABLE = 0;

    /** The RPC half: per item the tuple image, then the header re-read. */
    public abstract static class Rpc extends TupleRpc {
        private final int headerBytes;

        protected Rpc(ClusterView cluster, String name, int headerBytes) {
            super(cluster, name);
            this.headerBytes = headerBytes;
        }

        /** On the owner, between the two reads ({@code arg} is the caller's {@link DoubleRead#rpcArg}). */
        protected void between(RpcWorker w, Table t, long off, long arg) {}

        /** Whether the tuple image and the header re-read agree. */
        protected abstract boolean stable(byte[] image, int imageOff, byte[] header, int headerOff);

        @Override protected int replyPayload(Table t) { return t.tupleBytes + headerBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long key = q.key(), arg = q.arg0();
            long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            out.r0(off);
            out.r1(RPC_UNSTABLE);
            if (off < 0) return;
            int img = out.payload(), hdr = img + t.tupleBytes;
            for (int attempt = 0; attempt < HANDLER_ATTEMPTS; attempt++) {
                w.memory.read(t.region(), off, out.data(), img, t.tupleBytes);
                VarHandle.acquireFence();
                between(w, t, off, arg);
                w.memory.read(t.region(), off, out.data(), hdr, headerBytes);
                VarHandle.acquireFence();
                if (stable(out.data(), img, out.data(), hdr)) {
                    out.r1(RPC_STABLE);
                    return;
                }
            }
        }
    }

    private static final int STEP_TUPLE = 0, STEP_HEADER = 1, STEP_DONE = 2;

    protected final CoroutineContext ctx;
    private final Rpc rpc;
    private final TupleFetch fetch;
    private final int headerBytes;
    private final RuntimeException notFound, unstable;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    // per access of the current range (index - from): header re-read, next step, ops in flight
    private byte[][] hdr = new byte[0][];
    private int[] step = new int[8];
    private Op[] tupleOp = new Op[8], hdrOp = new Op[8];
    /** RPC: the first access of the range being read (an access's k is its index minus this). */
    private int rpcFrom;

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return step[a.index - rpcFrom] != STEP_DONE; }
        @Override public long arg0(Access a) { return rpcArg(); }

        @Override
        public void result(Access a, long off, long stable, byte[] reply, int p) {
            int k = a.index - rpcFrom;
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
            System.arraycopy(reply, p + a.table.tupleBytes, hdr[k], 0, headerBytes);
        }
    };

    /**
     * @param notFound thrown for a key that is not in its table
     * @param unstable thrown when {@link #MAX_ROUNDS} rounds did not give a stable read
     */
    protected DoubleRead(CoroutineContext ctx, Rpc rpc, TupleFetch fetch, int headerBytes, RuntimeException notFound,
                         RuntimeException unstable) {
        this.ctx = ctx;
        this.rpc = rpc;
        this.fetch = fetch;
        this.headerBytes = headerBytes;
        this.notFound = notFound;
        this.unstable = unstable;
    }

    /**
     * Takes what the double read saw ({@link Access#image} and {@code header}); false when the tuple changed in
     * between, so it must be read again. May throw the protocol's aborts.
     */
    protected abstract boolean accept(Access a, byte[] header);

    /** Counts accesses that had to be read again. */
    protected abstract void countRetries(int n);

    /** ARG0 of the RPC items (MVCC: the transaction's timestamp). */
    protected long rpcArg() { return 0; }

    /** Room for per-access state of {@code n} accesses (indices 0..n-1 of the current range). */
    protected void capacity(int n) {}

    /** One-sided: the tuple image of access {@code k} arrived (also after a re-read). */
    protected void tupleRead(int k, Access a) {}

    /** One-sided: queue ops that must run before the header READ, in the same doorbell batch. */
    protected void beforeHeaderRead(int k, Access a) {}

    /** One-sided, after a header round: false to repeat the header step before accepting (a lost CAS). */
    protected boolean headerStepDone(int k, Access a) { return true; }

    private void ensure(int n) {
        if (hdr.length < n) {
            int old = hdr.length;
            hdr = Arrays.copyOf(hdr, Math.max(n, old * 2));
            for (int i = old; i < hdr.length; i++) hdr[i] = new byte[headerBytes];
        }
        if (step.length < n) {
            int m = Math.max(n, step.length * 2);
            step = Arrays.copyOf(step, m);
            tupleOp = Arrays.copyOf(tupleOp, m);
            hdrOp = Arrays.copyOf(hdrOp, m);
        }
        capacity(n);
    }

    /** Reads accesses {@code [from, to)}. */
    public void run(Tx tx, int from, int to, boolean oneSided) {
        int n = to - from;
        ensure(n);
        if (oneSided) readOneSided(tx, from, n);
        else readRpc(tx, from, n);
    }

    private void readRpc(Tx tx, int from, int n) {
        rpcFrom = from;
        for (int k = 0; k < n; k++) step[k] = tx.access(from + k).write ? STEP_DONE : STEP_HEADER;   // reads: not yet read consistently
        for (int round = 1; ; round++) {
            rpc.call(ctx, caller, tx, from, from + n, items);
            ctx.release();
            int pending = 0;
            for (int k = 0; k < n; k++) if (step[k] != STEP_DONE) pending++;
            if (pending == 0) break;
            if (round == MAX_ROUNDS) throw unstable;
            countRetries(pending);
            ctx.sleep(RETRY_PAUSE_NS);
        }
        for (int k = 0; k < n; k++) {
            Access a = tx.access(from + k);
            if (a.write) continue;
            if (a.absent) throw notFound;
            if (!accept(a, hdr[k])) throw new IllegalStateException("a stable RPC read failed the double-read check");
        }
    }

    private void readOneSided(Tx tx, int from, int n) {
        fetch.fetch(tx, from, from + n, true, false, true);                 // the tuple READ of every read
        int left = 0;
        for (int k = 0; k < n; k++) {
            Access a = tx.access(from + k);
            if (a.write) {
                step[k] = STEP_DONE;
                continue;
            }
            if (a.absent) throw notFound;
            step[k] = STEP_HEADER;
            tupleRead(k, a);
            left++;
        }
        boolean reread = false;
        for (int round = 0; left > 0; round++) {
            if (reread) ctx.sleep(RETRY_PAUSE_NS);
            reread = false;
            if (round == MAX_ROUNDS) throw unstable;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(from + k);
                if (step[k] == STEP_TUPLE) {
                    tupleOp[k] = ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes);
                    ctx.add(tupleOp[k]);
                } else if (step[k] == STEP_HEADER) {
                    beforeHeaderRead(k, a);
                    hdrOp[k] = ctx.op().read(a.node, a.table.region(), a.offset, headerBytes);
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
                    tupleRead(k, a);
                    step[k] = STEP_HEADER;
                } else if (step[k] == STEP_HEADER) {
                    if (!headerStepDone(k, a)) continue;
                    System.arraycopy(hdrOp[k].data, 0, hdr[k], 0, headerBytes);
                    if (!accept(a, hdr[k])) {
                        countRetries(1);
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
