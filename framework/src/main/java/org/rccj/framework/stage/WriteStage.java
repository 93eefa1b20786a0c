package org.rccj.framework.stage;

import org.rccj.framework.runtime.CoroutineContext;
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
     * Runs the stage where the coordinator needs no reply before going on (COMMIT after the decision, RELEASE
     * after a commit): the RPC half sends passive RPCs (DrTM+H's "two-sided primitive with passive ACK" for the
     * commit phase; the artifact's PA write-back): no reply message, no wait, the stores count as done once
     * posted, and the fabric learns each handler ran from a later completion from the same node. The one-sided
     * half is unchanged: install writes unsignaled, the unlock WRITE after them signaled and awaited.
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
