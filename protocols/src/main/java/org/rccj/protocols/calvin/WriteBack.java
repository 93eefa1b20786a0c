package org.rccj.protocols.calvin;

import java.lang.invoke.VarHandle;
import org.rccj.framework.runtime.Cluster;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.runtime.Worker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.WriteStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.AccessLongs;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * FORWARD stage, executor to active participants: the coordinator sends each written tuple its new version and
 * record and passes its lock on (serving = ticket + 1); after a workload-logic rollback it only passes the lock
 * on. One-sided: a WRITE of version and record, then a WRITE of the serving word (same queue pair, so the lock
 * is passed on only after the record landed; the second WRITE's completion acknowledges both). RPC: one batched
 * message per participant whose handler stores the same words in the same order.
 */
final class WriteBack extends WriteStage {
    static final class Rpc extends TupleRpc {
        Rpc(Cluster c) { super(c, "calvin.writeback"); }

        @Override protected int requestPayload(Table t) { return CalvinTuple.installBytes(t.recordBytes); }

        @Override
        protected void serve(Worker w, Table t, long key, long off, long ticket, long install, byte[] req, int rp, byte[] reply, int r) {
            if (install != 0) {
                VarHandle.releaseFence();
                w.memory.write(t.region(), off + CalvinTuple.INSTALL_SPAN, req, rp, CalvinTuple.installBytes(t.recordBytes));
            }
            w.memory.putLongRelease(t.region(), off + CalvinTuple.SERVING, CalvinTuple.released(ticket));
        }
    }

    /** Per access: the lock ticket the scheduler granted (releasing passes the lock to the next ticket). */
    private final AccessLongs tickets;
    private boolean install;

    WriteBack(CoroutineContext ctx, Rpc rpc) {
        super(ctx, rpc);
        this.tickets = new AccessLongs(ctx.tx);
    }

    /** Access {@code a} holds its tuple's lock under {@code ticket}. */
    void ticket(Access a, long ticket) { tickets.set(a, ticket); }

    /**
     * Releases every tuple {@code tx} holds, installing its writes first if {@code install} (not after a
     * workload-logic rollback); returns once all are done.
     */
    void finish(Tx tx, boolean oneSided, boolean install) {
        this.install = install;
        run(tx, oneSided);
    }

    @Override protected boolean selected(Access a) { return a.locked; }

    @Override
    protected void post(Access a, int i) {
        int region = a.table.region();
        if (install) {
            int bytes = CalvinTuple.installBytes(a.table.recordBytes);
            Op w = ctx.op().write(a.node, region, a.offset + CalvinTuple.INSTALL_SPAN, bytes).unsignaled();
            CalvinTuple.installImage(ctx.tx.id, a.update, a.table.recordBytes, w.data, 0);
            add(w);
        }
        add(ctx.op().writeLong(a.node, region, a.offset + CalvinTuple.SERVING, CalvinTuple.released(tickets.get(a))));
    }

    @Override protected long arg0(Access a) { return tickets.get(a); }
    @Override protected long arg1(Access a) { return install ? 1 : 0; }

    @Override
    protected void payload(Access a, byte[] dst, int off) {
        if (install) CalvinTuple.installImage(ctx.tx.id, a.update, a.table.recordBytes, dst, off);
    }

    @Override protected void done(Access a) { a.locked = false; }
}
