package org.rccj.protocols.occ;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.stage.CommitTail;
import org.rccj.framework.stage.ReleaseWord;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.Tx;

/** One coroutine's OCC: stage order and the binding of each stage to one-sided or RPC primitives. */
final class OccExecutor extends TxnExecutor {
    private final HybridCode code;
    private final OccProtocol protocol;
    private final TupleFetch fetch;
    private final OccLock lock;
    private final OccValidate validate;
    private final OccCommit commit;
    private final ReleaseWord release;

    OccExecutor(CoroutineContext ctx, OccProtocol p, OccValidate validate) {
        super(ctx);
        this.protocol = p;
        this.code = p.hybrid;
        this.fetch = new TupleFetch(ctx, p.fetchRpc);
        this.lock = new OccLock(ctx, p.lockRpc);
        this.validate = validate;
        this.commit = new OccCommit(ctx, p.commitRpc);
        this.release = new ReleaseWord(ctx, p.releaseRpc, OccTuple.LOCK);
    }

    @Override
    public void fetch(Tx tx, int from, int to) {
        long t = ctx.stageStart();
        fetch.fetch(tx, from, to, code.oneSided(Stage.READ), false);
        for (int i = from; i < to; i++) validate.acceptRead(tx.access(i));
        ctx.stageEnd(Stage.READ, t);
    }

    @Override
    public void commit(Tx tx) {
        boolean writes = !tx.readOnly();
        long t = ctx.stageStart();
        if (writes) t = CommitTail.step(ctx, tx, code, Stage.LOCK, lock, t);
        t = CommitTail.step(ctx, tx, code, Stage.VALIDATE, validate, t);
        if (writes) CommitTail.run(ctx, tx, code, t, true, commit, release);
    }


    @Override
    public void abort(Tx tx) { CommitTail.abort(ctx, tx, code, release); }
}
