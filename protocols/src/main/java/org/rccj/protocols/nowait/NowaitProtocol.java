package org.rccj.protocols.nowait;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.protocols.locking.LockCommit;
import org.rccj.protocols.locking.LockRelease;
import org.rccj.protocols.locking.ReadLocks;

/**
 * NOWAIT two-phase locking (RCC): locks on every accessed tuple taken at access time — exclusive, or shared
 * for reads with {@code read_locks: shared} ({@link ReadLocks}) —, any conflict aborts at once (so no
 * deadlock), then LOG, COMMIT and RELEASE.
 */
public final class NowaitProtocol implements Protocol {
    final HybridCode hybrid;
    final ReadLocks readLocks;
    TupleFetch.Rpc fetchRpc;
    NowaitLock.Rpc lockRpc;
    LockCommit.Rpc commitRpc;
    LockRelease.Rpc releaseRpc;

    public NowaitProtocol(HybridCode hybrid) { this(hybrid, ReadLocks.EXCLUSIVE); }

    public NowaitProtocol(HybridCode hybrid, ReadLocks readLocks) {
        this.hybrid = hybrid;
        this.readLocks = readLocks;
    }

    @Override public HeaderLayout header() { return NowaitTuple.LAYOUT; }

    @Override
    public void attach(ClusterView cluster) {
        fetchRpc = new TupleFetch.Rpc(cluster);
        lockRpc = new NowaitLock.Rpc(cluster);
        releaseRpc = new LockRelease.Rpc(cluster, "nowait.release", NowaitTuple.WORDS);
        commitRpc = new LockCommit.Rpc(cluster, "nowait.commit", NowaitTuple.WORDS, releaseRpc);
    }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) { return new NowaitExecutor(ctx, this); }
}
