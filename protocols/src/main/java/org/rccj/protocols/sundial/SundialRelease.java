package org.rccj.protocols.sundial;

import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;

/**
 * RELEASE stage: store an unlocked rts word in every tuple this attempt locked: after a commit the new
 * version's lease end (the commit timestamp), after an abort the rts frozen at the lock. Either way the
 * value is in {@code meta1}.
 */
final class SundialRelease {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "sundial.release"); }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long word, long a1, byte[] req, int rp, byte[] reply, int r) {
            w.memory.putLongVolatile(t.region(), off + SundialTuple.RTS, word);
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return a.locked; }
        @Override public long arg0(Access a) { return a.meta1; }
        @Override public void result(Access a, long r0, long r1, byte[] reply, int p) { a.locked = false; }
    };

    SundialRelease(CoroutineContext ctx, Rpc rpc) {
        this.ctx = ctx;
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
            ctx.add(ctx.op().writeLong(a.node, a.table.region(), a.offset + SundialTuple.RTS, a.meta1));
            a.locked = false;
        }
        ctx.flushAndWait();
        ctx.release();
    }
}
