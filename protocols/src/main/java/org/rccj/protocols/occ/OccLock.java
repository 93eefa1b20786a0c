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
 * LOCK stage: lock every write-set tuple and check its version is still the one read. One-sided: a CAS
 * on the lock word and a READ of the version word in one doorbell batch. RPC: the handler does the same
 * CAS and read on its memory. Both end in {@link OccTuple#acceptLock}. Abort on the first conflict
 * (after all replies are in, so every lock taken is known and released).
 */
final class OccLock extends TupleStage {
    static final class Rpc extends TupleRpc {
        Rpc(ClusterView c) { super(c, "occ.lock"); }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset(), lockId = q.arg0();
            long found = w.memory.cas(t.region(), off + OccTuple.LOCK, 0, lockId);
            out.r0(found);
            out.r1(w.memory.getLongVolatile(t.region(), off + OccTuple.VERSION));
        }
    }

    OccLock(CoroutineContext ctx, Rpc rpc) { super(ctx, rpc); }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        add(ctx.op().cas(a.node, a.table.region(), a.offset + OccTuple.LOCK, 0, ctx.tx.id).unsignaled());
        add(ctx.op().read(a.node, a.table.region(), a.offset + OccTuple.VERSION, 8));
    }

    @Override
    protected boolean completed(Access a, int i, Op cas, Op version) {
        OccTuple.acceptLock(a, cas.result, Bytes.getLong(version.data, 0));
        return false;
    }

    @Override protected long arg0(Access a) { return ctx.tx.id; }

    @Override
    protected void replied(Access a, long found, long version, byte[] reply, int p) { OccTuple.acceptLock(a, found, version); }
}
