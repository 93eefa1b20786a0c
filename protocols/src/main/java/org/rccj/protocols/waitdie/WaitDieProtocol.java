package org.rccj.protocols.waitdie;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.protocols.locking.LockCommit;
import org.rccj.protocols.locking.ReadLocks;

/**
 * WAITDIE two-phase locking (RCC): locks on every accessed tuple taken at access time (reads exclusive, or
 * shared with {@code read_locks: shared}, see {@link WaitDieTuple#decideShared}); on a
 * conflict an older transaction waits for a younger holder and a younger one dies (aborts, keeping its
 * timestamp for the retry), so waits only go from older to younger and cannot form a cycle.
 * Then LOG, COMMIT (installs and unlocks the writes) and RELEASE (read locks; everything after an abort).
 */
public class WaitDieProtocol implements Protocol {
    final HybridCode hybrid;
    final long retryNs, pollNs;
    final ReadLocks readLocks;
    TupleFetch.Rpc fetchRpc;
    WaitDieLock.Rpc lockRpc;
    LockCommit.Rpc commitRpc;
    WaitDieRelease.Rpc releaseRpc;
    private WaitTable[] tables;
    private final List<WaitDieExecutor> executors = new ArrayList<>();

    public WaitDieProtocol(HybridCode hybrid, double retryUs, double pollUs) { this(hybrid, retryUs, pollUs, ReadLocks.EXCLUSIVE); }

    public WaitDieProtocol(HybridCode hybrid, double retryUs, double pollUs, ReadLocks readLocks) {
        this.hybrid = hybrid;
        this.readLocks = readLocks;
        this.retryNs = Math.max(1, Math.round(retryUs * 1000));
        this.pollNs = Math.max(1, Math.round(pollUs * 1000));
    }

    /** The starvation fix: waiters mark the tuple's waiter word and younger transactions yield to them. */
    protected boolean marksWaiters() { return true; }

    @Override public HeaderLayout header() { return WaitDieTuple.LAYOUT; }

    @Override
    public void attach(ClusterView cluster) {
        tables = new WaitTable[cluster.nodes()];
        for (int n = 0; n < tables.length; n++) tables[n] = new WaitTable(cluster.store, cluster.memory(n), cluster.threads(), marksWaiters());
        fetchRpc = new TupleFetch.Rpc(cluster);
        lockRpc = new WaitDieLock.Rpc(cluster, tables);
        releaseRpc = new WaitDieRelease.Rpc(cluster, tables);
        commitRpc = new LockCommit.Rpc(cluster, "waitdie.commit", WaitDieTuple.WORDS, releaseRpc);
    }

    @Override
    public TxnExecutor executor(CoroutineContext ctx) {
        for (WaitTable t : tables) t.window = ctx;
        WaitDieExecutor e = new WaitDieExecutor(ctx, this);
        executors.add(e);
        return e;
    }

    /**
     * An RPC LOCK may park requests; an RPC unlock (COMMIT for writes, RELEASE for read locks and aborts)
     * hands them the lock, but a one-sided one runs no handler: then one poller per worker looks after the
     * requests its handler parked.
     */
    @Override public int serviceCoroutines() { return !hybrid.oneSided(Stage.LOCK) && (hybrid.oneSided(Stage.RELEASE) || hybrid.oneSided(Stage.COMMIT)) ? 1 : 0; }

    /** The artifact's build checks its lock manager in every pass when LOCK is RPC (rworker.h:133-134). */
    @Override
    public java.util.function.IntBinaryOperator lockManagerWaiters() {
        return hybrid.oneSided(Stage.LOCK) ? null : (node, worker) -> tables[node].parkedBy(worker);
    }

    @Override
    public List<Runnable> services(CoroutineContext ctx) {
        return List.of(new WaitDiePoller(ctx, tables[ctx.node], pollNs));
    }

    @Override
    public Map<String, Double> metrics() {
        long waits = 0, dies = 0, yields = 0, runEnds = 0, maxWait = 0;
        for (WaitDieExecutor e : executors) {
            Attempt a = e.attempt;
            waits += a.waits;
            dies += a.dies;
            yields += a.yields;
            runEnds += a.runEnds;
            maxWait = Math.max(maxWait, a.maxWaitNs);
        }
        long parks = 0, onRelease = 0, byPoll = 0;
        for (WaitTable t : tables) {
            synchronized (t) {
                parks += t.parks;
                onRelease += t.grantsOnRelease;
                byPoll += t.grantsByPoll;
                maxWait = Math.max(maxWait, t.maxWaitNs);
            }
        }
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("waits", (double) (waits + parks));
        m.put("dies", (double) dies);
        m.put("yields", (double) yields);
        m.put("waits_cut_by_run_end", (double) runEnds);
        m.put("max_wait_us", maxWait / 1e3);
        m.put("rpc_parked", (double) parks);
        m.put("rpc_granted_on_release", (double) onRelease);
        m.put("rpc_granted_by_poll", (double) byPoll);
        return m;
    }
}
