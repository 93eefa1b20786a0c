package org.rccj.protocols.mvcc;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.ReleaseWord;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.stats.EventCounts;
import org.rccj.framework.store.HeaderLayout;

/**
 * MVCC as in RCC: multi-version timestamp ordering with {@code version_slots} versions kept in place in
 * every tuple. A transaction reads, at its timestamp, the newest version older than it (R1) unless an
 * earlier writer holds the tuple (R2); it writes only if no later transaction read or wrote the tuple
 * (W1, checked before and after locking) and installs a new version over the oldest one at commit.
 */
public class MvccProtocol implements Protocol {
    final HybridCode hybrid;
    final MvccTuple tuple;
    TupleFetch.Rpc fetchRpc;
    MvccRead.Rpc readRpc;
    MvccLock.Rpc lockRpc;
    MvccCommit.Rpc commitRpc;
    ReleaseWord.Rpc releaseRpc;
    private final List<MvccExecutor> executors = new ArrayList<>();
    private long clockBase;

    public MvccProtocol(HybridCode hybrid, int versionSlots) { this(hybrid, new MvccTuple(versionSlots)); }

    /** With a given tuple (a test variant replaces one of its rules to show the checker catches it). */
    MvccProtocol(HybridCode hybrid, MvccTuple tuple) {
        this.hybrid = hybrid;
        this.tuple = tuple;
    }

    @Override public HeaderLayout header() { return tuple.layout; }

    @Override
    public void attach(ClusterView cluster) {
        int ids = cluster.nodes() * cluster.threads() * (cluster.shape.coroutines() + serviceCoroutines());
        if (ids >= 1 << MvccClock.ID_BITS) {
            throw new ConfigException("coroutines: MVCC timestamps hold coroutine ids in " + MvccClock.ID_BITS
                    + " bits; nodes x threads x coroutines must stay below " + (1 << MvccClock.ID_BITS));
        }
        fetchRpc = new TupleFetch.Rpc(cluster);
        readRpc = new MvccRead.Rpc(cluster, tuple);
        lockRpc = new MvccLock.Rpc(cluster, tuple);
        commitRpc = new MvccCommit.Rpc(cluster, tuple);
        releaseRpc = new ReleaseWord.Rpc(cluster, "mvcc.release", tuple.tts);
    }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) {
        synchronized (executors) {
            // timestamps count from the first coroutine's clock (0 on sim; keeps wall-clock values small on local)
            if (executors.isEmpty()) clockBase = ctx.now();
            MvccExecutor e = new MvccExecutor(ctx, this, clockBase);
            executors.add(e);
            return e;
        }
    }

    @Override
    public Map<String, Double> metrics() {
        EventCounts<MvccCounters> sum = new EventCounts<>(MvccCounters.class);
        synchronized (executors) {
            for (MvccExecutor e : executors) sum.add(e.counters);
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("mvcc_version_slots", (double) tuple.slots);
        sum.report("mvcc_", m);
        return m;
    }
}
