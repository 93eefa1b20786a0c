package org.rccj.protocols.sundial;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.stage.CommitTail;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stats.EventCounts;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;

/**
 * One coroutine's SUNDIAL: during execution READ the read set (with its leases) and LOCK the write set (the
 * tuple read under the lock), as RCC does at access time; at commit compute the commit timestamp (max of
 * read wts and of rts + 1 over writes), RENEW the read leases that end before it, then LOG and COMMIT
 * (which installs and unlocks the writes); RELEASE only after an abort. Read-only transactions stop after RENEW.
 */
final class SundialExecutor extends TxnExecutor {
    private final HybridCode code;
    private final SundialRead read;
    private final SundialLock lock;
    private final SundialRenew renew;
    private final SundialCommit commit;
    private final SundialRelease release;
    private final Leases leases;
    final EventCounts<SundialCounters> counters = new EventCounts<>(SundialCounters.class);

    SundialExecutor(CoroutineContext ctx, SundialProtocol p) {
        super(ctx);
        this.code = p.hybrid;
        this.leases = new Leases(ctx.tx);
        TupleFetch fetch = new TupleFetch(ctx, p.fetchRpc);
        this.read = new SundialRead(ctx, p.readRpc, fetch, leases, counters);
        this.lock = new SundialLock(ctx, p.lockRpc, fetch, leases, counters);
        this.renew = new SundialRenew(ctx, p.tuple, p.renewRpc, leases, counters, p.artifactRenew);
        this.commit = new SundialCommit(ctx, p.commitRpc, leases);
        this.release = new SundialRelease(ctx, p.releaseRpc, leases);
    }

    @Override
    public void fetch(Tx tx, int from, int to) {
        long t = ctx.stageStart();
        if (tx.hasReads(from, to)) {
            read.run(tx, from, to, code.oneSided(Stage.READ));
            t = ctx.stageNext(Stage.READ, t);
        }
        if (tx.hasWrites(from, to)) {
            lock.run(tx, from, to, code.oneSided(Stage.LOCK));
            ctx.stageEnd(Stage.LOCK, t);
        }
    }

    /** The commit timestamp: no earlier than any version read, later than any lease a write ends. */
    long commitTimestamp(Tx tx) {
        long cts = 0;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            cts = Math.max(cts, leases.wts(a));
            if (a.write) cts = Math.max(cts, SundialTuple.rtsOf(leases.rtsWord(a)) + 1);
        }
        return cts;
    }

    @Override
    public void commit(Tx tx) {
        boolean writes = !tx.readOnly();
        long t = ctx.stageStart();
        long cts = commitTimestamp(tx);
        renew.renew(tx, cts, code.oneSided(Stage.RENEW));
        t = ctx.stageNext(Stage.RENEW, t);
        if (!writes) return;
        commit.timestamp(cts);
        CommitTail.run(ctx, tx, code, t, true, commit, release);
    }


    @Override
    public void abort(Tx tx) { CommitTail.abort(ctx, tx, code, release); }
}
