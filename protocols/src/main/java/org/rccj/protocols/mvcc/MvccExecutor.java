package org.rccj.protocols.mvcc;

import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Stage;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnExecutor;
import org.rccj.framework.stage.CommitTail;
import org.rccj.framework.stage.ReleaseWord;

/**
 * One coroutine's MVCC: a timestamp per attempt; READ during execution (every access, so write-set
 * tuples are located and pre-checked); at commit LOCK, LOG, COMMIT, RELEASE for the write set.
 * Read-only transactions commit right after their reads.
 */
final class MvccExecutor extends TxnExecutor {
    private final HybridCode code;
    private final MvccClock clock;
    private final long clockBase;
    private final MvccRead read;
    private final MvccLock lock;
    private final MvccCommit commit;
    private final ReleaseWord release;
    final MvccCounters counters = new MvccCounters();
    private long ts;

    MvccExecutor(CoroutineContext ctx, MvccProtocol p, long clockBase) {
        super(ctx);
        this.code = p.hybrid;
        this.clock = new MvccClock(ctx.globalId);
        this.clockBase = clockBase;
        Versions versions = new Versions(ctx.tx);
        this.read = new MvccRead(ctx, p.tuple, p.readRpc, new TupleFetch(ctx, p.fetchRpc), versions, clock, counters);
        this.lock = new MvccLock(ctx, p.tuple, p.lockRpc, versions, clock);
        this.commit = new MvccCommit(ctx, p.tuple, p.commitRpc, versions);
        this.release = new ReleaseWord(ctx, p.releaseRpc, p.tuple.tts);
    }

    @Override
    public void begin(Tx tx) {
        ts = clock.next(Math.max(0, ctx.now() - clockBase));
    }

    /** This attempt's timestamp. */
    long timestamp() { return ts; }

    @Override
    public void fetch(Tx tx, int from, int to) {
        long t = ctx.stageStart();
        read.run(tx, from, to, ts, code.oneSided(Stage.READ));
        ctx.stageEnd(Stage.READ, t);
    }

    @Override
    public void commit(Tx tx) {
        if (tx.readOnly()) return;
        long t = ctx.stageStart();
        lock.run(tx, ts, code.oneSided(Stage.LOCK));
        t = ctx.stageNext(Stage.LOCK, t);
        commit.timestamp(ts);
        CommitTail.run(ctx, tx, code, t, true, commit, release);
    }


    @Override
    public void abort(Tx tx) { CommitTail.abort(ctx, tx, code, release); }
}
