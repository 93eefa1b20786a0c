package org.rccj.protocols.occ;

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
 * LOCK stage: lock every write-set tuple and check its version is still the one read. One-sided: a CAS
 * on the lock word and a READ of the version word in one doorbell batch. RPC: the handler does the same
 * CAS and read on its memory. Both end in {@link OccTuple#acceptLock}. Abort on the first conflict
 * (after all replies are in, so every lock taken is known and released).
 */
final class OccLock {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "occ.lock"); }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long lockId, long a1, byte[] req, int rp, byte[] reply, int r) {
            long found = w.memory.cas(t.region(), off + OccTuple.LOCK, 0, lockId);
            Bytes.putLong(reply, r + REPLY_R0, found);
            Bytes.putLong(reply, r + REPLY_R1, w.memory.getLongVolatile(t.region(), off + OccTuple.VERSION));
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private RuntimeException failure;
    private Op[] cas = new Op[8], ver = new Op[8];
    private int[] idx = new int[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.write; }
        @Override public long arg0(Access a) { return ctx.tx.id; }
        @Override public void result(Access a, long r0, long r1, byte[] reply, int p) { decide(a, r0, r1); }
    };

    OccLock(CoroutineContext ctx, Rpc rpc) {
        this.ctx = ctx;
        this.rpc = rpc;
    }

    private void decide(Access a, long found, long version) {
        try {
            OccTuple.acceptLock(a, found, version);
        } catch (RuntimeException e) {
            if (failure == null) failure = e;
        }
    }

    void run(Tx tx, boolean oneSided) {
        failure = null;
        if (oneSided) {
            int n = 0;
            for (int i = 0; i < tx.size(); i++) {
                Access a = tx.access(i);
                if (!a.write) continue;
                if (n == idx.length) {
                    cas = java.util.Arrays.copyOf(cas, n * 2);
                    ver = java.util.Arrays.copyOf(ver, n * 2);
                    idx = java.util.Arrays.copyOf(idx, n * 2);
                }
                Op c = ctx.op().cas(a.node, a.table.region(), a.offset + OccTuple.LOCK, 0, tx.id).unsignaled();
                Op v = ctx.op().read(a.node, a.table.region(), a.offset + OccTuple.VERSION, 8);
                cas[n] = c;
                ver[n] = v;
                idx[n++] = i;
                ctx.add(c);
                ctx.add(v);
            }
            ctx.flushAndWait();
            for (int k = 0; k < n; k++) decide(tx.access(idx[k]), cas[k].result, Bytes.getLong(ver[k].data, 0));
        } else {
            rpc.call(ctx, caller, tx, 0, tx.size(), items);
        }
        ctx.release();
        if (failure != null) throw failure;
    }
}
