package org.rccj.protocols.occ;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.ReleaseWord;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.HeaderLayout;

/** OCC as in DrTM+H: READ, then LOCK the write set, VALIDATE the read set, LOG, COMMIT, RELEASE. */
public class OccProtocol implements Protocol {
    final HybridCode hybrid;
    TupleFetch.Rpc fetchRpc;
    OccLock.Rpc lockRpc;
    OccValidate.Rpc validateRpc;
    OccCommit.Rpc commitRpc;
    ReleaseWord.Rpc releaseRpc;

    public OccProtocol(HybridCode hybrid) { this.hybrid = hybrid; }

    @Override public HeaderLayout header() { return OccTuple.LAYOUT; }

    @Override
    public void attach(ClusterView cluster) {
        fetchRpc = new TupleFetch.Rpc(cluster);
        lockRpc = new OccLock.Rpc(cluster);
        validateRpc = new OccValidate.Rpc(cluster);
        commitRpc = new OccCommit.Rpc(cluster);
        releaseRpc = new ReleaseWord.Rpc(cluster, "occ.release", OccTuple.LOCK);
    }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) {
        return new OccExecutor(ctx, this, validation(ctx));
    }

    /** The VALIDATE stage of one coroutine (a test variant replaces it to show the checker catches it). */
    protected OccValidate validation(CoroutineContext ctx) { return new OccValidate(ctx, validateRpc); }
}
