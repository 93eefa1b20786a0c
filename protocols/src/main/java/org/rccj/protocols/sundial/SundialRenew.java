package org.rccj.protocols.sundial;

import java.util.Arrays;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * RENEW stage: extend the lease of every read-only access whose rts is below the commit timestamp, unless
 * its version was replaced or a writer holds it. One-sided: a CAS of the rts word from the value read to
 * the commit timestamp, then a READ of wts (after the CAS, same doorbell batch); a CAS lost to another
 * renewal is repeated with the value it found. RPC: the handler repeats the same CAS and read locally.
 * Both decide with {@link SundialTuple#renewStep}.
 */
final class SundialRenew {
    /** Bounds the CAS rounds (each lost to another renewal of the same tuple). */
    static final int MAX_ROUNDS = 32;
    /** RPC request payload: the commit timestamp. */
    static final int REQ_CTS = 0, REQ_PAYLOAD_BYTES = 8;

    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "sundial.renew"); }

        @Override protected int requestPayload(Table t) { return REQ_PAYLOAD_BYTES; }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long expected, long wts, byte[] req, int rp, byte[] reply, int r) {
            long cts = Bytes.getLong(req, rp + REQ_CTS);
            long step = SundialTuple.BUSY;
            for (int round = 0; round < MAX_ROUNDS; round++) {
                long found = w.memory.cas(t.region(), off + SundialTuple.RTS, expected, cts);
                step = SundialTuple.renewStep(wts, expected, cts, found, w.memory.getLongVolatile(t.region(), off + SundialTuple.WTS));
                if (step < 0) break;
                expected = step;
                step = SundialTuple.BUSY;
            }
            Bytes.putLong(reply, r + REPLY_R0, step);
        }
    }

    private final CoroutineContext ctx;
    private final SundialTuple tuple;
    private final Rpc rpc;
    private final SundialCounters counters;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private RuntimeException failure;
    private long cts;
    private Op[] cas = new Op[8], wts = new Op[8];
    private int[] idx = new int[8];
    private long[] expected = new long[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return tuple.needsRenewal(a, cts); }
        @Override public long arg0(Access a) { return SundialTuple.expectedWord(a); }
        @Override public long arg1(Access a) { return a.meta0; }
        @Override public void payload(Access a, byte[] dst, int off) { Bytes.putLong(dst, off + REQ_CTS, cts); }
        @Override public void result(Access a, long step, long r1, byte[] reply, int p) { decided(step); }
    };

    SundialRenew(CoroutineContext ctx, SundialTuple tuple, Rpc rpc, SundialCounters counters) {
        this.ctx = ctx;
        this.tuple = tuple;
        this.rpc = rpc;
        this.counters = counters;
    }

    private void decided(long step) {
        if (step == SundialTuple.DONE) {
            counters.renewalsOk++;
            return;
        }
        counters.renewalsFailed++;
        if (failure == null) failure = SundialTuple.renewFailure(step);
    }

    /** Renews every lease that ends before {@code cts}; aborts if one cannot be. */
    void run(Tx tx, long cts, boolean oneSided) {
        this.cts = cts;
        failure = null;
        if (!oneSided) {
            rpc.call(ctx, caller, tx, 0, tx.size(), items);
            ctx.release();
            if (failure != null) throw failure;
            return;
        }
        int n = 0;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!tuple.needsRenewal(a, cts)) continue;
            if (n == idx.length) {
                idx = Arrays.copyOf(idx, n * 2);
                expected = Arrays.copyOf(expected, n * 2);
                cas = Arrays.copyOf(cas, n * 2);
                wts = Arrays.copyOf(wts, n * 2);
            }
            expected[n] = SundialTuple.expectedWord(a);
            idx[n++] = i;
        }
        // pending entries are [0, n); a decided one is swapped out of the range
        for (int round = 0; n > 0; round++) {
            for (int k = 0; k < n; k++) {
                Access a = tx.access(idx[k]);
                cas[k] = ctx.op().cas(a.node, a.table.region(), a.offset + SundialTuple.RTS, expected[k], cts).unsignaled();
                wts[k] = ctx.op().read(a.node, a.table.region(), a.offset + SundialTuple.WTS, 8);
                ctx.add(cas[k]);
                ctx.add(wts[k]);
            }
            ctx.flushAndWait();
            for (int k = 0; k < n; ) {
                Access a = tx.access(idx[k]);
                long step = SundialTuple.renewStep(a.meta0, expected[k], cts, cas[k].result, Bytes.getLong(wts[k].data, 0));
                if (step >= 0) {
                    counters.casRetries++;
                    if (round + 1 < MAX_ROUNDS) {
                        expected[k++] = step;
                        continue;
                    }
                    step = SundialTuple.BUSY;
                }
                decided(step);
                n--;
                idx[k] = idx[n];
                expected[k] = expected[n];
                cas[k] = cas[n];
                wts[k] = wts[n];
            }
            ctx.release();
        }
        if (failure != null) throw failure;
    }
}
