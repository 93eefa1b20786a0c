package org.rccj.protocols.drtm;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.Verdict;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * A stage that acquires the lock word of each selected tuple by CAS and fetches the tuple behind it:
 * DrTM's LOCK (exclusive) and READ (read lease) stages are its two subclasses. The CAS loop is the same
 * for both transports: CAS {@code expected -> desired}, ask the rule ({@link #next}) what the next CAS
 * should expect, stop at {@link DrtmLockWord#DONE}; then {@link #accept} decides from the word relied on.
 * One-sided: each round posts, per tuple, an unsignaled CAS and a READ of the whole tuple in one doorbell
 * batch (executed in order, so the image is read under the outcome of the CAS), and the rule runs at the
 * coordinator. RPC: one batched request per node whose handler runs the same loop on its memory and
 * returns the word relied on and the image. Clock readings are the coordinator's in both.
 */
abstract class DrtmAcquire {
    /** Bound on CAS rounds per tuple (a word that keeps changing under us is a conflict). */
    static final int MAX_CAS_ROUNDS = 4;

    /** The RPC half: the handler runs the CAS loop on the owner's memory. */
    abstract static class Rpc extends TupleRpc {
        protected final DrtmLockWord word;

        Rpc(ClusterView c, String name, DrtmLockWord word) {
            super(c, name);
            this.word = word;
        }

        /** The rule: see {@link DrtmAcquire#next}. */
        abstract long next(long expected, long found, long now);

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long key = q.key(), off = q.offset(), desired = q.arg0(), now = q.arg1();
            if (off < 0) off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            out.r0(off);
            if (off < 0) return;
            long expected = DrtmLockWord.FREE, found;
            int rounds = 0;
            while (true) {
                found = w.memory.cas(t.region(), off + DrtmTuple.LOCK, expected, desired);
                long next = next(expected, found, now);
                if (next == DrtmLockWord.DONE || ++rounds == MAX_CAS_ROUNDS) break;
                expected = next;
            }
            out.r1(DrtmLockWord.held(expected, found, desired));
            w.memory.read(t.region(), off, out.data(), out.payload(), t.tupleBytes);
            VarHandle.acquireFence();
        }
    }

    protected final CoroutineContext ctx;
    protected final DrtmClock clock;
    protected final DrtmLockWord word;
    private final Rpc rpc;
    private final TupleFetch locator;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private boolean includeLocal;
    /** RPC half: the word wanted and the coordinator's clock reading, sent with every item. */
    private long rpcDesired, rpcNow;
    private final Verdict verdict = new Verdict();
    private int[] idx = new int[8];
    private long[] expected = new long[8];
    private Op[] cas = new Op[8], read = new Op[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return select(a); }
        @Override public long arg0(Access a) { return rpcDesired; }
        @Override public long arg1(Access a) { return rpcNow; }

        @Override
        public void result(Access a, long off, long held, byte[] reply, int payload) {
            if (off < 0) {
                a.absent = true;
                verdict.fail(DrtmTuple.NOT_FOUND);
                return;
            }
            a.offset = off;
            ctx.cache().put(a.table.id, a.key, off);
            settle(a, rpcDesired, held, reply, payload);
        }
    };

    DrtmAcquire(CoroutineContext ctx, DrtmClock clock, DrtmLockWord word, Rpc rpc, TupleFetch locator) {
        this.ctx = ctx;
        this.clock = clock;
        this.word = word;
        this.rpc = rpc;
        this.locator = locator;
    }

    /** Which accesses this stage acquires: the write set (LOCK) or the read set (READ). */
    abstract boolean wants(Access a);

    /** The word to install, at protocol time {@code now}. */
    abstract long desired(Tx tx, long now);

    /** The rule of the CAS loop (shared with the RPC half): the next expected word or DONE. */
    abstract long next(long expected, long found, long now);

    /** The CAS loop relied on {@code held} (having wanted {@code desired}): take it or throw. */
    abstract void accept(Access a, long desired, long held);

    private boolean select(Access a) { return wants(a) && (includeLocal || a.node != ctx.node); }

    private void settle(Access a, long desired, long held, byte[] image, int off) {
        try {
            accept(a, desired, held);
            DrtmTuple.acceptImage(a, image, off);
        } catch (AbortException e) {
            verdict.fail(e);
        }
    }

    /**
     * Acquires accesses {@code [from, to)} this stage wants; local ones (on the coordinator's node) only if
     * {@code includeLocal} (fallback and read-only paths; otherwise the HTM region reads them). Throws the
     * first conflict once every reply is in, so every word taken is marked ({@code locked}) for release.
     */
    void run(Tx tx, int from, int to, boolean oneSided, boolean includeLocal) {
        this.includeLocal = includeLocal;
        verdict.reset();
        if (oneSided) runOneSided(tx, from, to);
        else runRpc(tx, from, to);
        verdict.check();
    }

    /** RPC: the word wanted and the clock reading go with every item; the handler runs the CAS loop. */
    private void runRpc(Tx tx, int from, int to) {
        rpcNow = clock.now(ctx);
        rpcDesired = desired(tx, rpcNow);
        rpc.call(ctx, caller, tx, from, to, items);
        ctx.release();
    }

    private void runOneSided(Tx tx, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            if (!select(tx.access(i))) continue;
            if (n == idx.length) grow();
            idx[n] = i;
            expected[n++] = DrtmLockWord.FREE;
        }
        if (n == 0) return;
        locator.locate(tx, from, to);
        ctx.release();
        for (int round = 1; n > 0; round++) {
            long now = clock.now(ctx);
            long desired = desired(tx, now);
            int posted = 0;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(idx[k]);
                if (a.absent) {
                    verdict.fail(DrtmTuple.NOT_FOUND);
                    continue;
                }
                cas[k] = ctx.op().cas(a.node, a.table.region(), a.offset + DrtmTuple.LOCK, expected[k], desired).unsignaled();
                read[k] = ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes);
                ctx.add(cas[k]);
                ctx.add(read[k]);
                posted++;
            }
            if (posted > 0) ctx.flushAndWait();
            int again = 0;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(idx[k]);
                if (a.absent) continue;
                long found = cas[k].result;
                long next = next(expected[k], found, now);
                if (next == DrtmLockWord.DONE || round == MAX_CAS_ROUNDS) {
                    settle(a, desired, DrtmLockWord.held(expected[k], found, desired), read[k].data, 0);
                } else {
                    idx[again] = idx[k];
                    expected[again++] = next;
                }
            }
            ctx.release();
            n = verdict.failed() ? 0 : again;
        }
    }

    private void grow() {
        int m = idx.length * 2;
        idx = Arrays.copyOf(idx, m);
        expected = Arrays.copyOf(expected, m);
        cas = Arrays.copyOf(cas, m);
        read = Arrays.copyOf(read, m);
    }
}
