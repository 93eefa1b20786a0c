package org.rccj.protocols.drtm;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;

/**
 * LOCK stage: an exclusive lock on every write-set tuple (remote ones; local ones too on the fallback
 * path), fetching the record with it. A writer may take over a read lease only once it has expired by
 * its own clock plus DELTA ({@link DrtmLockWord#writerNext}).
 */
final class DrtmLock extends DrtmAcquire {
    static final class Rpc extends DrtmAcquire.Rpc {
        Rpc(ClusterView c, DrtmLockWord word) { super(c, "drtm.lock", word); }

        @Override long next(long expected, long found, long now) { return word.writerNext(expected, found, now); }
    }

    DrtmLock(CoroutineContext ctx, DrtmClock clock, DrtmLockWord word, Rpc rpc, TupleFetch locator) {
        super(ctx, clock, word, rpc, locator);
    }

    @Override boolean wants(Access a) { return a.write; }
    @Override long desired(Tx tx, long now) { return DrtmLockWord.exclusive(tx.id); }
    @Override long next(long expected, long found, long now) { return word.writerNext(expected, found, now); }
    @Override void accept(Access a, long desired, long held) { DrtmTuple.acceptLock(a, desired, held); }
}
