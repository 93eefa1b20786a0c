package org.rccj.protocols.locking;

import java.lang.invoke.VarHandle;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.WriteStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Op;

/**
 * COMMIT stage of a locking protocol: install each write (version word = the transaction id, then the
 * record) while its lock is held. One-sided: one WRITE per tuple, unsignaled when the RELEASE that follows
 * is one-sided too (its WRITE on the same queue pair completes only after this one: "update, then
 * unlock, only the second signaled"). RPC: the handler writes the same bytes.
 */
public final class LockCommit extends WriteStage {
    public static final class Rpc extends TupleRpc {
        private final LockWords words;

        public Rpc(Cluster c, String name, LockWords words) {
            super(c, name);
            this.words = words;
        }

        @Override protected int requestPayload(Table t) { return words.commitBytes(t); }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long a0, long a1, byte[] req, int rp, byte[] reply, int r) {
            VarHandle.releaseFence();
            w.memory.write(t.region(), off + words.commitSpan, req, rp, words.commitBytes(t));
        }
    }

    private final LockWords words;

    public LockCommit(CoroutineContext ctx, LockWords words, Rpc rpc) {
        super(ctx, rpc);
        this.words = words;
    }

    @Override protected boolean selected(Access a) { return a.write; }

    @Override
    protected void post(Access a, int i) {
        if (!a.locked) throw new IllegalStateException("commit of " + a.table.name + "#" + a.key + " without its lock");
        Op op = ctx.op().write(a.node, a.table.region(), a.offset + words.commitSpan, words.commitBytes(a.table));
        words.commitImage(a, ctx.tx.id, op.data, 0);
        write(op);
    }

    @Override protected void payload(Access a, byte[] dst, int off) { words.commitImage(a, ctx.tx.id, dst, off); }
}
