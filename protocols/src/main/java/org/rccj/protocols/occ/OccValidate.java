package org.rccj.protocols.occ;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.TupleStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * Read-set validation. At read time ({@link #acceptRead}) a tuple must be unlocked; in the VALIDATE stage
 * every read-only access must still be unlocked and at the version read. One-sided: a READ of the lock
 * and version words; RPC: the handler reads them. Both end in {@link OccTuple#acceptValidate}.
 */
class OccValidate extends TupleStage {
    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "occ.validate"); }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset();
            out.r1(w.memory.getLongVolatile(t.region(), off + OccTuple.VERSION));
            out.r0(w.memory.getLongVolatile(t.region(), off + OccTuple.LOCK));
        }
    }

    private static final int HEADER_SPAN = OccTuple.VERSION + 8 - OccTuple.LOCK;

    OccValidate(CoroutineContext ctx, Rpc rpc) { super(ctx, rpc); }

    /** READ stage: accept a fetched image (see {@link OccTuple#acceptRead}). */
    void acceptRead(Access a) { OccTuple.acceptRead(a); }

    @Override protected boolean selected(Access a) { return !a.write; }

    @Override
    protected void post(Access a, int i) { add(ctx.op().read(a.node, a.table.region(), a.offset + OccTuple.LOCK, HEADER_SPAN)); }

    @Override
    protected boolean completed(Access a, int i, Op header, Op none) {
        OccTuple.acceptValidate(a, Bytes.getLong(header.data, 0), Bytes.getLong(header.data, OccTuple.VERSION - OccTuple.LOCK));
        return false;
    }

    @Override
    protected void replied(Access a, long lock, long version, byte[] reply, int p) { OccTuple.acceptValidate(a, lock, version); }
}
