package org.rccj.protocols.drtm;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.RegisteredMemory;

/**
 * One coroutine's DrTM. Per attempt it takes one of three paths, chosen at the first fetch:
 * <ul>
 * <li>{@link Path#HTM}: remote writes are locked (LOCK), remote reads leased (READ), then local records
 *   are read inside the emulated HTM region ({@link DrtmHtm}); at commit the region's XEND validates,
 *   the leases are confirmed inside it, and the local writes are installed; then LOG, then COMMIT writes
 *   back and unlocks the remote records.</li>
 * <li>{@link Path#FALLBACK}: after {@code htm_retries} HTM conflict aborts of the same transaction, or
 *   at once after a capacity abort (retrying cannot help, as RTM's abort status says), local records
 *   are locked and leased like remote ones (both stages' transports reach the own node too).</li>
 * <li>{@link Path#READ_ONLY}: a transaction without writes leases everything, local records too, with
 *   the longer read-only lease, and commits by confirming its leases (DrTM's read-only protocol).</li>
 * </ul>
 * A transaction may fetch in several rounds: each round locks and leases its new keys before the
 * workload sees them, and the HTM region spans the rounds (see DrtmFactory on multi-round transactions).
 */
final class DrtmExecutor extends TxnExecutor {
    enum Path { HTM, FALLBACK, READ_ONLY }

    private final DrtmProtocol p;
    private final HybridCode code;
    private final DrtmClock clock;
    private final DrtmLockWord word;
    private final DrtmCounters counters;
    private final DrtmLock lock;
    private final DrtmLease lease;
    private final DrtmHtm htm;
    private final DrtmCommit commit;

    private Path path;
    /** HTM conflict aborts of the current transaction (across its attempts). */
    private int htmConflicts;
    /** The next attempt of the current transaction takes the fallback path. */
    private boolean fallbackNext;
    /** This attempt was aborted by this executor (not by the workload's logic). */
    private boolean ownAbort;

    DrtmExecutor(CoroutineContext ctx, DrtmProtocol p, DrtmCounters counters) {
        super(ctx);
        this.p = p;
        this.code = p.hybrid;
        this.clock = p.clock;
        this.word = p.word;
        this.counters = counters;
        TupleFetch locator = new TupleFetch(ctx, p.fetchRpc);
        this.lock = new DrtmLock(ctx, clock, word, p.lockRpc, locator);
        this.lease = new DrtmLease(ctx, clock, word, p.leaseRpc, locator, counters);
        this.htm = new DrtmHtm(ctx, word, counters, p.htmCapacityLines);
        this.commit = new DrtmCommit(ctx, p.commitRpc, p.unlockRpc);
    }

    @Override
    public void begin(Tx tx) {
        path = null;
        ownAbort = false;
        htm.begin();
    }

    private Path choosePath(Tx tx) {
        if (tx.readOnly()) return Path.READ_ONLY;
        return fallbackNext ? Path.FALLBACK : Path.HTM;
    }

    @Override
    public void fetch(Tx tx, int from, int to) {
        try {
            if (path == null) {
                path = choosePath(tx);
                lease.duration(path == Path.READ_ONLY ? p.readOnlyLeaseNs : p.leaseNs);
            }
            boolean includeLocal = path != Path.HTM;
            long t = ctx.stageStart();
            lock.run(tx, from, to, code.oneSided(Stage.LOCK), includeLocal);
            ctx.stageEnd(Stage.LOCK, t);
            t = ctx.stageStart();
            lease.run(tx, from, to, code.oneSided(Stage.READ), includeLocal);
            if (path == Path.HTM) htm.read(tx, from, to);
            ctx.stageEnd(Stage.READ, t);
        } catch (AbortException e) {
            ownAbort(e);
            throw e;
        }
    }

    @Override
    public void commit(Tx tx) {
        try {
            long t = ctx.stageStart();
            if (htm.active()) {
                htm.prepare(tx, clock.now(ctx));
                try {
                    confirmLeases(tx);
                } catch (AbortException e) {
                    htm.rollback(tx);
                    throw e;
                }
                htm.apply(tx);
            } else {
                confirmLeases(tx);
            }
            long xend = ctx.now() - t;
            if (!tx.readOnly()) {
                t = ctx.stageStart();
                ctx.cluster().log().append(ctx, tx, code.oneSided(Stage.LOG), false);   // no log-clean message (CoordinatorLog)
                ctx.stageEnd(Stage.LOG, t);
                t = ctx.stageStart();
                commit.commit(tx, code.oneSided(Stage.COMMIT));
                ctx.stageEnd(Stage.COMMIT, t - xend);
            }
            counters.committed(ctx, path, htm.active());
            htmConflicts = 0;
            fallbackNext = false;
        } catch (AbortException e) {
            ownAbort(e);
            throw e;
        }
    }

    /** Every lease this attempt relies on must still be confirmable on this node's clock. */
    private void confirmLeases(Tx tx) {
        long now = clock.now(ctx);
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!leased(a)) continue;
            if (!word.confirmable(lease.held(a), now)) throw DrtmTuple.LEASE_EXPIRED;
            counters.leaseConfirmed(ctx);
            if (p.auditLeases) audit(a);
        }
    }

    private boolean leased(Access a) { return !a.write && (path != Path.HTM || !DrtmHtm.local(a, ctx)); }

    /**
     * Diagnostic ({@code audit_leases}): looks at the tuple directly (no operation, no cost) and counts a
     * confirmation of a lease that a writer has already broken (holds the tuple or replaced the version
     * read). Impossible while DELTA covers the clock skew.
     */
    private void audit(Access a) {
        RegisteredMemory m = ctx.cluster().memory(a.node);
        long w = m.getLongVolatile(a.table.region(), a.offset + DrtmTuple.LOCK);
        long v = m.getLongVolatile(a.table.region(), a.offset + DrtmTuple.VERSION);
        if (DrtmLockWord.isExclusive(w) || v != a.version) counters.leaseViolation(ctx);
    }

    private void ownAbort(AbortException e) {
        ownAbort = true;
        if (e == DrtmTuple.HTM_CAPACITY) {
            counters.htmCapacity(ctx);
            fallbackNext = true;
        } else if (DrtmTuple.htmConflict(e)) {
            counters.htmConflict(ctx);
            if (++htmConflicts > p.htmRetries) fallbackNext = true;
        }
    }

    @Override
    public void abort(Tx tx) {
        if (!ownAbort) {
            // the workload rolled the transaction back: the next one starts afresh
            htmConflicts = 0;
            fallbackNext = false;
        }
        boolean held = false;
        for (int i = 0; i < tx.size() && !held; i++) held = tx.access(i).locked;
        if (!held) return;
        long t = ctx.stageStart();
        commit.release(tx, code.oneSided(Stage.COMMIT));
        ctx.stageEnd(Stage.COMMIT, t);
    }
}
