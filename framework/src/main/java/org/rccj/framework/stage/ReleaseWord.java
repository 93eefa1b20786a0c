package org.rccj.framework.stage;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;

/**
 * A RELEASE stage that ends every lock the attempt holds ({@link Access#locked}) by storing one header word:
 * 0 for a lock word (OCC, MVCC's tts), or whatever {@link #valueAfter} says (SUNDIAL's rts without its
 * lock bit). One-sided: a WRITE of the word per tuple, one doorbell batch per node, signaled. RPC: one
 * batched request per node whose handler stores the same word.
 */
public class ReleaseWord extends WriteStage {
    /** The RPC half: ARG0 is the value to store. */
    public static final class Rpc extends TupleRpc {
        private final int word;

        /** @param word offset of the header word within the tuple */
        public Rpc(ClusterView cluster, String name, int word) {
            super(cluster, name);
            this.word = word;
        }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset(), value = q.arg0();
            w.memory.putLongVolatile(t.region(), off + word, value);
        }
    }

    private final int word;

    /** @param word offset of the header word within the tuple (the same the RPC half stores) */
    public ReleaseWord(CoroutineContext ctx, Rpc rpc, int word) {
        super(ctx, rpc);
        this.word = word;
    }

    /** The word's value once the lock is released; 0 unless the protocol keeps more in that word. */
    protected long valueAfter(Access a) { return 0; }

    @Override protected boolean selected(Access a) { return a.locked; }

    @Override
    protected void post(Access a, int i) { add(ctx.op().writeLong(a.node, a.table.region(), a.offset + word, valueAfter(a))); }

    @Override protected long arg0(Access a) { return valueAfter(a); }

    @Override protected void done(Access a) { a.locked = false; }
}
