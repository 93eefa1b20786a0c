package org.rccj.protocols.occ;

import java.lang.invoke.VarHandle;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * COMMIT stage: install each write (new version word, then the record) while its lock is still held.
 * One-sided: one WRITE per tuple; unsignaled when RELEASE is one-sided too, because the release WRITE
 * that follows on the same queue pair completes only after it (passive ACK). RPC: the handler writes the
 * same bytes.
 */
final class OccCommit {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "occ.commit"); }

        @Override protected int requestPayload(Table t) { return 8 + t.recordBytes; }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long a0, long a1, byte[] req, int rp, byte[] reply, int r) {
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + OccTuple.COMMIT_SPAN, req, rp, 8 + t.recordBytes);
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.write; }
        @Override public void payload(Access a, byte[] dst, int off) { OccTuple.commitImage(a, ctx.tx.id, dst, off); }
        @Override public void result(Access a, long r0, long r1, byte[] reply, int p) {}
    };

    OccCommit(CoroutineContext ctx, Rpc rpc) {
        this.ctx = ctx;
        this.rpc = rpc;
    }

    /** @param passiveAck the next stage's one-sided WRITEs on the same queue pairs will signal for these */
    void run(Tx tx, boolean oneSided, boolean passiveAck) {
        if (!oneSided) {
            rpc.call(ctx, caller, tx, 0, tx.size(), items);
            ctx.release();
            return;
        }
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!a.write) continue;
            Op op = ctx.op().write(a.node, a.table.region(), a.offset + OccTuple.COMMIT_SPAN, 8 + a.table.recordBytes);
            OccTuple.commitImage(a, tx.id, op.data, 0);
            if (passiveAck) op.unsignaled();
            ctx.add(op);
        }
        ctx.flushAndWait();
        ctx.release();
    }
}
