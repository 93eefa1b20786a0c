package org.rccj.protocols.drtm;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.HeaderLayout;

/** DrTM for one run: its settings, clocks, RPC handlers, and the coroutines' counters. */
final class DrtmProtocol implements Protocol {
    final HybridCode hybrid;
    final long leaseNs, readOnlyLeaseNs;
    final int htmCapacityLines, htmRetries;
    final boolean auditLeases;
    final DrtmLockWord word;
    final DrtmClock clock;
    TupleFetch.Rpc fetchRpc;
    DrtmLock.Rpc lockRpc;
    DrtmLease.Rpc leaseRpc;
    DrtmCommit.Rpc commitRpc;
    DrtmCommit.UnlockRpc unlockRpc;
    private final List<DrtmCounters> counters = new ArrayList<>();

    DrtmProtocol(HybridCode hybrid, DrtmSettings s, long seed, int nodes) {
        this.hybrid = hybrid;
        this.leaseNs = s.leaseNs();
        this.readOnlyLeaseNs = s.readOnlyLeaseNs();
        this.htmCapacityLines = s.htmCapacityLines();
        this.htmRetries = s.htmRetries();
        this.auditLeases = s.auditLeases();
        this.word = new DrtmLockWord(s.deltaNs());
        this.clock = new DrtmClock(seed, nodes, s.clockSkewNs());
    }

    @Override public HeaderLayout header() { return DrtmTuple.LAYOUT; }

    @Override
    public void attach(ClusterView cluster) {
        clock.start(cluster.origin());
        fetchRpc = new TupleFetch.Rpc(cluster);
        lockRpc = new DrtmLock.Rpc(cluster, word);
        leaseRpc = new DrtmLease.Rpc(cluster, word);
        commitRpc = new DrtmCommit.Rpc(cluster);
        unlockRpc = new DrtmCommit.UnlockRpc(cluster);
    }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) {
        DrtmCounters c = new DrtmCounters();
        counters.add(c);
        return new DrtmExecutor(ctx, this, c);
    }

    @Override
    public Map<String, Double> metrics() { return DrtmCounters.report(counters, clock, auditLeases); }
}
