package org.rccj.protocols.mvcc;

import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;

/** RELEASE stage: clear tts of every tuple this attempt locked (after commit or abort). */
final class MvccRelease {
    static final class Rpc extends TupleRpc {
        private final MvccTuple tuple;

        Rpc(Cluster c, MvccTuple tuple) {
            super(c, "mvcc.release");
            this.tuple = tuple;
        }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long a0, long a1, byte[] req, int rp, byte[] reply, int r) {
            w.memory.putLongVolatile(t.region(), off + tuple.tts, 0);
        }
    }

    private final CoroutineContext ctx;
    private final MvccTuple tuple;
    private final Rpc rpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.locked; }
        @Override public void result(Access a, long r0, long r1, byte[] reply, int p) { a.locked = false; }
    };

    MvccRelease(CoroutineContext ctx, MvccTuple tuple, Rpc rpc) {
        this.ctx = ctx;
        this.tuple = tuple;
        this.rpc = rpc;
    }

    void run(Tx tx, boolean oneSided) {
        if (!oneSided) {
            rpc.call(ctx, caller, tx, 0, tx.size(), items);
            ctx.release();
            return;
        }
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!a.locked) continue;
            ctx.add(ctx.op().writeLong(a.node, a.table.region(), a.offset + tuple.tts, 0));
            a.locked = false;
        }
        ctx.flushAndWait();
        ctx.release();
    }
}
