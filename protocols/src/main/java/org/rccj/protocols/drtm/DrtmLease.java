package org.rccj.protocols.drtm;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.AccessLongs;
import org.rccj.framework.txn.Tx;

/**
 * READ stage: a read lease on every read-only tuple (remote ones; local ones too on the fallback and
 * read-only paths), fetching the record under it. The lease word is the end time on the reader's clock;
 * a reader shares a lease it can still confirm and otherwise installs a new one
 * ({@link DrtmLockWord#readerNext}). Leases are never released: they expire.
 */
final class DrtmLease extends DrtmAcquire {
    static final class Rpc extends DrtmAcquire.Rpc {
        Rpc(ClusterView c, DrtmLockWord word) { super(c, "drtm.lease", word); }

        @Override long next(long expected, long found, long now) { return word.readerNext(expected, found, now); }
    }

    private final DrtmCounters counters;
    /** Per access: the lease word relied on (its end is confirmed at commit). */
    private final AccessLongs held;
    /** Duration of the leases this transaction takes (read-write or read-only), ns. */
    private long leaseNs;

    DrtmLease(CoroutineContext ctx, DrtmClock clock, DrtmLockWord word, Rpc rpc, TupleFetch locator, DrtmCounters counters) {
        super(ctx, clock, word, rpc, locator);
        this.counters = counters;
        this.held = new AccessLongs(ctx.tx);
    }

    /** The lease word access {@code a} relies on (0 if it took none). */
    long held(Access a) { return held.get(a); }

    void duration(long ns) { leaseNs = ns; }

    @Override boolean wants(Access a) { return !a.write; }
    @Override long desired(Tx tx, long now) { return now + leaseNs; }
    @Override long next(long expected, long found, long now) { return word.readerNext(expected, found, now); }

    @Override
    void accept(Access a, long desired, long held) {
        DrtmTuple.acceptLease(held);
        this.held.set(a, held);
        if (held == desired) counters.leaseGranted(ctx); else counters.leaseShared(ctx);
    }
}
