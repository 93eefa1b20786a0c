package org.rccj.protocols.mvcc;

import java.lang.invoke.VarHandle;
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
 * LOCK stage: CAS tts from 0 to the transaction's timestamp on every write-set tuple, then read the header
 * (after the CAS) for the W1 re-check: no later reader (rts), no newer version (wts), and the version read
 * is still the newest. One-sided: CAS + header READ in one doorbell batch; RPC: the handler does both on
 * its memory and returns the header. Both end in {@link MvccTuple#acceptLock}; abort after all replies
 * are in, so every lock taken is known and released.
 */
final class MvccLock {
    static final class Rpc extends TupleRpc {
        private final MvccTuple tuple;

        Rpc(Cluster c, MvccTuple tuple) {
            super(c, "mvcc.lock");
            this.tuple = tuple;
        }

        @Override protected int replyPayload(Table t) { return tuple.headerBytes; }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long ts, long a1, byte[] req, int rp, byte[] reply, int r) {
            Bytes.putLong(reply, r + REPLY_R0, w.memory.cas(t.region(), off + tuple.tts, 0, ts));
            w.memory.read(t.region(), off, reply, r + REPLY_BYTES, tuple.headerBytes);
            VarHandle.acquireFence();
        }
    }

    private final CoroutineContext ctx;
    private final MvccTuple tuple;
    private final Rpc rpc;
    private final MvccClock clock;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private RuntimeException failure;
    private long ts;
    private Op[] cas = new Op[8], hdr = new Op[8];
    private int[] idx = new int[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.write; }
        @Override public long arg0(Access a) { return ts; }
        @Override public void result(Access a, long found, long r1, byte[] reply, int p) { decide(a, found, reply, p); }
    };

    MvccLock(CoroutineContext ctx, MvccTuple tuple, Rpc rpc, MvccClock clock) {
        this.ctx = ctx;
        this.tuple = tuple;
        this.rpc = rpc;
        this.clock = clock;
    }

    private void decide(Access a, long found, byte[] header, int off) {
        clock.observe(tuple.maxTimestamp(header, off));
        try {
            tuple.acceptLock(a, ts, found, header, off);
        } catch (RuntimeException e) {
            if (failure == null) failure = e;
        }
    }

    void run(Tx tx, long ts, boolean oneSided) {
        this.ts = ts;
        failure = null;
        if (oneSided) {
            int n = 0;
            for (int i = 0; i < tx.size(); i++) {
                Access a = tx.access(i);
                if (!a.write) continue;
                if (n == idx.length) {
                    cas = Arrays.copyOf(cas, n * 2);
                    hdr = Arrays.copyOf(hdr, n * 2);
                    idx = Arrays.copyOf(idx, n * 2);
                }
                cas[n] = ctx.op().cas(a.node, a.table.region(), a.offset + tuple.tts, 0, ts).unsignaled();
                hdr[n] = ctx.op().read(a.node, a.table.region(), a.offset, tuple.headerBytes);
                idx[n++] = i;
                ctx.add(cas[n - 1]);
                ctx.add(hdr[n - 1]);
            }
            ctx.flushAndWait();
            for (int k = 0; k < n; k++) decide(tx.access(idx[k]), cas[k].result, hdr[k].data, 0);
        } else {
            rpc.call(ctx, caller, tx, 0, tx.size(), items);
        }
        ctx.release();
        if (failure != null) throw failure;
    }
}
