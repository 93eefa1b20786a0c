package org.rccj.framework.stage;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * A {@link TupleStage} that only stores (COMMIT, RELEASE, write-back): nothing comes back to decide, so both
 * halves end in {@link #done}. One-sided writes queued with {@link #write} go unsignaled under passive ACK:
 * when the next stage's signaled WRITEs on the same queue pairs complete only after them (COMMIT then a
 * one-sided RELEASE: "update, then unlock, only the second signaled").
 */
public abstract class WriteStage extends TupleStage {
    private boolean passiveAck;

    protected WriteStage(CoroutineContext ctx, TupleRpc rpc) { super(ctx, rpc); }

    @Override public void run(Tx tx, boolean oneSided) { run(tx, oneSided, false); }

    /** @param passiveAck the next stage's one-sided WRITEs on the same queue pairs will signal for these */
    public void run(Tx tx, boolean oneSided, boolean passiveAck) {
        this.passiveAck = passiveAck;
        super.run(tx, oneSided);
    }

    /** One-sided, from {@link #post}: queues a write, unsignaled under passive ACK. */
    protected final Op write(Op op) {
        if (passiveAck) op.unsignaled();
        return add(op);
    }

    /** Both halves: the access's stores are done (e.g. it no longer holds its lock). */
    protected void done(Access a) {}

    @Override
    protected final boolean completed(Access a, int i, Op first, Op second) {
        done(a);
        return false;
    }

    @Override
    protected final void replied(Access a, long r0, long r1, byte[] reply, int payload) { done(a); }
}
