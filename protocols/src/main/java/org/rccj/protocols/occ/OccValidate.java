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
 * Read-set validation. At read time ({@link #acceptRead}) a tuple must be unlocked; in the VALIDATE stage
 * every read-only access must still be unlocked and at the version read. One-sided: a READ of the lock
 * and version words; RPC: the handler reads them. Both end in {@link OccTuple#acceptValidate}.
 */
class OccValidate {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "occ.validate"); }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long a0, long a1, byte[] req, int rp, byte[] reply, int r) {
            Bytes.putLong(reply, r + REPLY_R1, w.memory.getLongVolatile(t.region(), off + OccTuple.VERSION));
            Bytes.putLong(reply, r + REPLY_R0, w.memory.getLongVolatile(t.region(), off + OccTuple.LOCK));
        }
    }

    private static final int HEADER_SPAN = OccTuple.VERSION + 8 - OccTuple.LOCK;

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private RuntimeException failure;
    private Op[] ops = new Op[8];
    private int[] idx = new int[8];

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return !a.write; }
        @Override public void result(Access a, long lock, long version, byte[] reply, int p) { decide(a, lock, version); }
    };

    OccValidate(CoroutineContext ctx, Rpc rpc) {
        this.ctx = ctx;
        this.rpc = rpc;
    }

    private void decide(Access a, long lock, long version) {
        try {
            OccTuple.acceptValidate(a, lock, version);
        } catch (RuntimeException e) {
            if (failure == null) failure = e;
        }
    }

    /** READ stage: accept a fetched image (see {@link OccTuple#acceptRead}). */
    void acceptRead(Access a) { OccTuple.acceptRead(a); }

    void run(Tx tx, boolean oneSided) {
        failure = null;
        if (oneSided) {
            int n = 0;
            for (int i = 0; i < tx.size(); i++) {
                Access a = tx.access(i);
                if (a.write) continue;
                if (n == idx.length) {
                    ops = java.util.Arrays.copyOf(ops, n * 2);
                    idx = java.util.Arrays.copyOf(idx, n * 2);
                }
                Op op = ctx.op().read(a.node, a.table.region(), a.offset + OccTuple.LOCK, HEADER_SPAN);
                ops[n] = op;
                idx[n++] = i;
                ctx.add(op);
            }
            ctx.flushAndWait();
            for (int k = 0; k < n; k++) {
                byte[] d = ops[k].data;
                decide(tx.access(idx[k]), Bytes.getLong(d, 0), Bytes.getLong(d, OccTuple.VERSION - OccTuple.LOCK));
            }
        } else {
            rpc.call(ctx, caller, tx, 0, tx.size(), items);
        }
        ctx.release();
        if (failure != null) throw failure;
    }
}
