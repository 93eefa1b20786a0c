package org.rccj.protocols.mvcc;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.stage.CommitTail;
import org.rccj.framework.stage.ReleaseWord;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stats.EventCounts;
import org.rccj.framework.txn.Tx;

/**
 * One coroutine's MVCC: a timestamp per attempt; during execution READ the read set (double read, rts
 * raised) and LOCK the write set (tts CAS, W1, the tuple read under the lock), as RCC does at access
 * time; at commit LOG, COMMIT, RELEASE. Read-only transactions commit right after their reads.
 */
final class MvccExecutor extends TxnExecutor {
    private final HybridCode code;
    private final MvccClock clock;
    private final long clockBase;
    private final MvccRead read;
    private final MvccLock lock;
    private final MvccCommit commit;
    private final ReleaseWord release;
    final EventCounts<MvccCounters> counters = new EventCounts<>(MvccCounters.class);
    private long ts;

    MvccExecutor(CoroutineContext ctx, MvccProtocol p, long clockBase) {
        super(ctx);
        this.code = p.hybrid;
        this.clock = new MvccClock(ctx.globalId);
        this.clockBase = clockBase;
        Versions versions = new Versions(ctx.tx);
        TupleFetch fetch = new TupleFetch(ctx, p.fetchRpc);
        this.read = new MvccRead(ctx, p.tuple, p.readRpc, fetch, clock, counters);
        this.lock = new MvccLock(ctx, p.tuple, p.lockRpc, fetch, versions, clock);
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
        if (tx.hasReads(from, to)) {
            read.run(tx, from, to, ts, code.oneSided(Stage.READ));
            t = ctx.stageNext(Stage.READ, t);
        }
        if (tx.hasWrites(from, to)) {
            lock.run(tx, from, to, ts, code.oneSided(Stage.LOCK));
            ctx.stageEnd(Stage.LOCK, t);
        }
    }

    @Override
    public void commit(Tx tx) {
        if (tx.readOnly()) return;
        commit.timestamp(ts);
        CommitTail.run(ctx, tx, code, ctx.stageStart(), true, commit, release);
    }

    @Override
    public void abort(Tx tx) { CommitTail.abort(ctx, tx, code, release); }
}
