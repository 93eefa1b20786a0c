package org.rccj.framework.stage;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * A {@link TupleStage} that only stores (COMMIT, RELEASE, write-back): nothing comes back to decide, so both
 * halves end in {@link #done}. A COMMIT installs and unlocks in one round trip (DrTM+H): one-sided, the
 * install writes queued with {@link #install} go unsignaled and the unlock WRITE queued after them on the
 * same queue pair is signaled ("update, then unlock, only the second signaled"); RPC, one handler installs
 * and unlocks.
 */
public abstract class WriteStage extends TupleStage {
    protected WriteStage(CoroutineContext ctx, TupleRpc rpc) { super(ctx, rpc); }

    /**
     * One-sided, from {@link #post}: queues an install write unsignaled; the signaled op the access queues
     * after it on the same queue pair (its unlock) completes only after it.
     */
    protected final Op install(Op op) { return add(op.unsignaled()); }

    /**
     * Runs COMMIT after the decision with the run's {@code passive_ack} (the artifact's PA build switch, both
     * halves): with it, the RPC half sends passive RPCs (no reply message, no wait; the fabric learns each
     * handler ran from a later completion from the same node; the artifact's commit handlers reply only with
     * PA=0) and the one-sided half posts install and unlock WRITEs all unsignaled (its
     * {@code post_batch_pending}): nothing is awaited except the flow-control signal of one WR per 64 on a
     * queue pair ({@link CoroutineContext#flush}). Without it, both halves are
     * awaited (one-sided: install writes unsignaled, the unlock WRITE after them signaled).
     */
    public final void runPassive(Tx tx, boolean oneSided) { run(tx, 0, tx.size(), oneSided, true); }

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
