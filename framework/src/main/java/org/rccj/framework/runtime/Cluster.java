package org.rccj.framework.runtime;

import java.util.ArrayList;
import java.util.List;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcHandler;
import org.rccj.framework.log.CoordinatorLog;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.store.LocationCache;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.RegisteredMemory;

/** One run's cluster: fabric, store, RPC handlers, coordinator log and workers; what protocols see of it is a {@link ClusterView}. */
public final class Cluster extends ClusterView {
    public final Fabric fabric;
    public final CoordinatorLog log;
    /** The run's workload (for sizing decisions; protocols never call its transaction logic). */
    public final Workload workload;
    private final List<RpcHandler> handlers = new ArrayList<>();
    private final List<String> handlerNames = new ArrayList<>();
    CoroutineWorker[][] workers;
    /** The measured window under {@code warmup_ms: auto}, or null (a fixed warm-up: the window is known at the start). */
    WindowGate windowGate;
    private final LocationCache[] caches;
    /** Modelled CPU time of the workload's logic per transaction type, ns (0 until {@link #logicCosts} sets it). */
    private long[] logicNs;

    /** {@code stage_timers: artifact}: stages are timed where the artifact times them ({@link WorkerCoroutine#stageCut}). */
    public boolean artifactStageTimers;
    /** {@code fetch_items: one_by_one}: one stage call per access of a fetch (decision 0176). */
    public boolean fetchOneByOne;

    public Cluster(ClusterShape shape, Fabric fabric, Store store, Workload workload) { this(shape, fabric, store, workload, false); }

    /**
     * @param preload size the location caches for every tuple of every node and fill them while the workload
     *                loads ({@link #preload}; {@code location_cache.preload}): build the cluster before loading
     */
    public Cluster(ClusterShape shape, Fabric fabric, Store store, Workload workload, boolean preload) {
        super(shape, store);
        this.workload = workload;
        this.fabric = fabric;
        this.log = new CoordinatorLog(shape, fabric, this::register);
        int entries = cacheEntries(store, fabric.nodes(), preload, fabric.endpoint(0, 0).profile().locationCacheBytes);
        shared = preload && sharedPreload(fabric, fabric.endpoint(0, 0).profile().locationCacheBytes);
        caches = new LocationCache[fabric.nodes()];
        // nodes sharing this process read one set of preloaded locations, the owners' indexes (decision 0155)
        LocationCache.Preloaded base = shared ? (table, key) -> store.locate(store.table(table), key) : null;
        for (int n = 0; n < caches.length; n++) {
            if (!preload || fabric.hosts(n)) caches[n] = new LocationCache(shared ? OVERLAY_ENTRIES : entries, base);
        }
        preloadedPerNode = preload ? 0 : -1;
    }

    /**
     * Whether the nodes' preloaded caches are overlays over the shared locations: every node lives in this process
     * (sim, local) and no {@code location_cache.mb} bounds the cache (a bounded cache keeps what fits, per node).
     */
    public static boolean sharedPreload(Fabric fabric, long boundBytes) {
        if (boundBytes > 0) return false;
        for (int n = 0; n < fabric.nodes(); n++) if (!fabric.hosts(n)) return false;
        return true;
    }

    /**
     * Entries of each node's own location cache: lazily filled, as many as a node holds rows; preloaded (a process
     * that does not host every node, or a bounded cache), room for every node's rows at a load factor of at most 2/3
     * (open addressing), within {@link #PRELOAD_MAX_ENTRIES}; the profile may bound it in MB (DrTM+H; an entry is two
     * words, and misses go to the index).
     */
    static int cacheEntries(Store store, int nodes, boolean preload, long boundBytes) {
        long rows = 0;
        for (Table t : store.tables()) rows += t.capacityPerNode;
        return cacheEntries(rows, nodes, preload, boundBytes);
    }

    /** The same from a node's rows (capacity of every table on one node). */
    public static int cacheEntries(long rowsPerNode, int nodes, boolean preload, long boundBytes) {
        long wanted = preload ? Math.min(PRELOAD_MAX_ENTRIES, rowsPerNode * nodes * 3 / 2) : Math.min(1 << 23, rowsPerNode);
        int entries = (int) Math.max(1 << 12, wanted);
        long bound = boundBytes / 16;
        if (bound > 0) entries = (int) Math.min(entries, Math.max(16, bound));
        return entries;
    }

    /** Entries of a node's overlay over shared preloaded locations (it holds only invalidations and odd puts). */
    public static final int OVERLAY_ENTRIES = 1 << 12;
    /** The preloaded caches are overlays over the owners' indexes (no per-node copy, nothing to fill at load). */
    private final boolean shared;

    /** Whether the preload needs a load listener ({@link #preload}): a process whose caches are copies of their own. */
    public boolean preloadListens() { return preloadedPerNode >= 0 && !shared; }

    /** Entries of a preloaded location cache at most (16 bytes each: 256 MiB a node). */
    static final long PRELOAD_MAX_ENTRIES = 1L << 24;
    /** Tuple locations offered to the preload, and how many fit in the first hosted node's cache (-1: no preload). */
    private long preloadOffered, preloadedPerNode;

    /**
     * Puts a loaded tuple's location into the location cache of every node this process hosts (a Store load
     * listener; before the run, so not timed). A bounded cache ({@code location_cache.mb}) keeps what fits.
     */
    public void preload(int node, Table t, long key, long tupleOffset) {
        preloadOffered++;
        boolean first = true;
        for (int n = 0; n < caches.length; n++) {
            if (caches[n] == null) continue;
            boolean fit = caches[n].preload(t.id, key, tupleOffset);
            if (first && fit) preloadedPerNode++;
            first = false;
        }
    }

    /** Share of the loaded tuples the preload put in the cache (1 = all), or -1 when the caches were not preloaded. */
    public double preloadedShare() {
        return preloadedPerNode < 0 ? -1 : shared ? 1 : preloadOffered == 0 ? 1 : (double) preloadedPerNode / preloadOffered;
    }

    /** Tuple locations the preload was offered (every loaded tuple). */
    public long preloadOffered() { return preloadOffered; }

    /**
     * Takes the workload's logic cost per transaction type from the profile ({@code logic_ns.WORKLOAD.TYPE}); a type
     * the profile has no figure for costs nothing. Returns those types (to warn about).
     */
    public List<String> logicCosts(String workloadName) {
        List<String> types = workload.txnTypes(), missing = new ArrayList<>();
        org.rccj.primitives.CostProfile cost = fabric.endpoint(0, 0).profile();
        long[] ns = new long[types.size()];
        for (int t = 0; t < ns.length; t++) {
            ns[t] = Math.max(0, cost.logicNs(workloadName, types.get(t)));
            if (cost.logicNs(workloadName, types.get(t)) < 0) missing.add(types.get(t));
        }
        logicNs = ns;
        return missing;
    }

    /** Modelled CPU time of the workload's logic for one transaction of {@code type}, ns. */
    public long logicNs(int type) { return logicNs == null ? 0 : logicNs[type]; }

    @Override public int nodes() { return fabric.nodes(); }
    @Override public int threads() { return fabric.threads(); }
    @Override public RegisteredMemory memory(int node) { return fabric.memory(node); }
    @Override public CoordinatorLog log() { return log; }
    @Override public String fabricName() { return fabric.name(); }
    @Override public boolean virtualTime() { return fabric.virtualTime(); }
    @Override public long origin() { return fabric.origin(); }
    @Override public <T> java.util.Optional<T> capability(Class<T> type) { return fabric.capability(type); }
    @Override public int maxAccessesPerTxn() { return workload.maxAccessesPerTxn(); }
    @Override public int maxPickBytes() { return workload.maxPickBytes(); }
    @Override public TxnGenerator replayer(CoroutineContext ctx) { return workload.replayer(ctx); }

    @Override
    public int register(String name, RpcHandler h) {
        handlers.add(h);
        handlerNames.add(name);
        return handlers.size() - 1;
    }

    RpcHandler handler(int id) { return handlers.get(id); }

    int handlerCount() { return handlers.size(); }

    public String handlerName(int id) { return handlerNames.get(id); }

    public CoroutineWorker worker(int node, int index) { return workers[node][index]; }

    /** Transactions committed so far by every worker, warm-up included (for a progress display: read racily). */
    public long committedSoFar() {
        CoroutineWorker[][] ws = workers;
        long n = 0;
        if (ws != null) for (CoroutineWorker[] row : ws) for (CoroutineWorker w : row) if (w != null) n += w.stats().committedTotal();
        return n;
    }

    /** The location cache of a node (shared by its workers; see LocationCache for the race rules). */
    public LocationCache locationCache(int node) { return caches[node]; }
}
