package org.rccj.framework.run;

import com.sun.management.HotSpotDiagnosticMXBean;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.log.CoordinatorLog;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.Workload;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.LocationCache;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.TableSpec;
import org.rccj.primitives.MemoryStorage;

/**
 * The memory a run needs, computed from the config before anything is allocated or any loop over the data runs, and
 * the check that it fits (decisions 0067, 0156). Two kinds, each by part: registered (direct) memory, every node's
 * tables and indexes, coordinator-log rings and protocol regions (CALVIN's batch and forward slots); and heap, the
 * location caches as this process holds them and the coroutines. A process is checked against what its JVM may
 * allocate (-XX:MaxDirectMemorySize, -Xmx) and what the machine has available (MemAvailable); the launcher of a
 * multi-process fabric checks the node processes it starts on this host together ({@link #checkLocalProcesses}). A
 * run that cannot fit is refused (exit 2) with the size it needs and the settings that shrink it. The history of a
 * run with {@code verify} or {@code history} grows with its commits and is not included.
 */
public final class MemoryEstimate {
    /** Share of the remaining direct memory (and of heap, and of the machine's) a run may plan to use (the rest: slack). */
    static final double HEADROOM = 0.9;
    /**
     * Heap one transaction coroutine takes: its continuation and stack, context, op pool and generator, with its
     * share of its worker's statistics (measured, docs/measurements/scale.md).
     */
    public static final long COROUTINE_HEAP_BYTES = 15 * 1024;

    private MemoryEstimate() {}

    /** One part of a run's memory: what it is, its bytes, and the settings that make it smaller. */
    public record Part(String what, long bytes, String shrink) {}

    /** What one process needs: registered memory and heap, each by part (the largest first). */
    public record Need(List<Part> registered, List<Part> heap, List<Part> sparse) {
        public long registeredBytes() { return sum(registered); }
        /** Sparse registered memory (the log's rings, decision 0158): pages exist once touched; the most they can take. */
        public long sparseBytes() { return sum(sparse); }
        public long heapBytes() { return sum(heap); }
        public long bytes() { return registeredBytes() + heapBytes(); }
        static long sum(List<Part> parts) { long s = 0; for (Part p : parts) s += p.bytes(); return s; }
    }

    /** The registered regions of one node: tables and indexes, the coordinator-log rings, the protocol's regions. */
    public static List<Store.PlannedRegion> regionsPerNode(Config c, Protocol protocol, Workload workload) {
        return regionsPerNode(c, protocol, protocol.header(), workload.tables(), workload.maxAccessesPerTxn(), workload.maxPickBytes());
    }

    static List<Store.PlannedRegion> regionsPerNode(Config c, Protocol protocol, HeaderLayout header, List<TableSpec> specs,
                                                    int maxAccesses, int maxPick) {
        List<Store.PlannedRegion> out = new ArrayList<>();
        for (Store.PlannedRegion r : Store.plannedRegions(header, specs, c.nodes())) out.add(new Store.PlannedRegion(r.name(), Math.max(8, r.bytes())));
        out.add(new Store.PlannedRegion(CoordinatorLog.REGION, CoordinatorLog.regionBytes(c.nodes(), c.threads(), c.replication()),
                "lower " + Config.REPLICATION.key() + " (" + c.replication() + "; 1 keeps no log) or " + Config.THREADS.key()));
        if (protocol != null) {
            for (Store.PlannedRegion r : protocol.plannedRegions(new Protocol.RegionPlan(c.shape(), specs, maxAccesses, maxPick))) {
                out.add(new Store.PlannedRegion(r.name(), Math.max(8, r.bytes()), r.shrink()));
            }
        }
        return out;
    }

    /** Bytes of registered memory one node needs: its tables and indexes, plus its coordinator-log rings (no protocol regions). */
    public static long bytesPerNode(Config c, HeaderLayout header, List<TableSpec> specs) {
        long sum = 0;
        for (Store.PlannedRegion r : regionsPerNode(c, null, header, specs, 0, 0)) sum += r.bytes();
        return sum;
    }

    /** Bytes of registered memory one node needs, the protocol's regions included. */
    public static long bytesPerNode(Config c, Protocol protocol, Workload workload) {
        long sum = 0;
        for (Store.PlannedRegion r : regionsPerNode(c, protocol, workload)) sum += r.bytes();
        return sum;
    }

    /** Bytes of registered memory one node of the run {@code c} needs (its protocol's and workload's layout; nothing is allocated). */
    public static long bytesPerNode(Config c) {
        var protocol = c.protocolFactory().create(new org.rccj.framework.spi.ProtocolSetup(c.shape(), c.hybrid(), c.protocolOptions()));
        var workload = c.workloadFactory().create(new org.rccj.framework.spi.WorkloadSetup(c.shape(), c.workload()));
        return bytesPerNode(c, protocol, workload);
    }

    /**
     * What a process needs that holds the registered memory of {@code memoryNodes} nodes and runs {@code hostedNodes}
     * of them ({@code sharedCache}: its nodes' preloaded location caches are overlays over the owners' indexes).
     */
    public static Need need(Config c, List<Store.PlannedRegion> regions, long rowsPerNode, int memoryNodes, int hostedNodes,
                            boolean sharedCache) {
        List<Part> reg = new ArrayList<>(), sparse = new ArrayList<>();
        for (Store.PlannedRegion r : regions) {
            String shrink = r.shrink() != null ? r.shrink() : "lower " + smaller(c) + " or " + Config.THREADS.key();
            (r.name().equals(CoordinatorLog.REGION) ? sparse : reg).add(new Part(r.name(), r.bytes() * memoryNodes, shrink));
        }
        List<Part> heap = new ArrayList<>();
        boolean preload = c.preloadLocationCache();
        long bound = locationCacheBound(c);
        long entries = sharedCache && preload ? org.rccj.framework.runtime.Cluster.OVERLAY_ENTRIES
                : org.rccj.framework.runtime.Cluster.cacheEntries(rowsPerNode, c.nodes(), preload, bound);
        heap.add(new Part("location caches (" + hostedNodes + " x " + gib(LocationCache.bytes(entries)) + ")",
                hostedNodes * LocationCache.bytes(entries),
                preload && !sharedCache ? "set " + Config.LOCATION_CACHE + "." + Config.LOCATION_CACHE_PARAMS.get(0).key()
                        + "=false (or a smaller location_cache.mb in the profile)" : FEWER_NODES));
        long coroutines = (long) hostedNodes * c.threads() * c.coroutines();
        heap.add(new Part("coroutines (" + coroutines + " x " + gib(COROUTINE_HEAP_BYTES) + ")", coroutines * COROUTINE_HEAP_BYTES,
                "lower " + Config.COROUTINES.key() + " (" + c.coroutines() + ") or " + Config.THREADS.key() + " (" + c.threads() + ")"));
        reg.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        heap.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        return new Need(reg, heap, sparse);
    }

    /** Rows (capacity of every table) one node holds. */
    static long rowsPerNode(Config c, HeaderLayout header, List<TableSpec> specs) {
        long rows = 0;
        for (TableSpec s : specs) rows += org.rccj.framework.store.Table.capacityPerNode(s, c.nodes());
        return rows;
    }

    /** The profile's bound on a node's location cache in bytes (location_cache.mb; 0: none). */
    static long locationCacheBound(Config c) {
        Object p = c.fabricSetting("profile");
        if (p == null) return 0;
        try {
            return org.rccj.primitives.CostProfile.load(String.valueOf(p)).locationCacheBytes;
        } catch (RuntimeException unreadable) {
            return 0;      // the fabric names a bad profile itself, in its own words
        }
    }

    /**
     * The check every fabric's run makes before it allocates anything: a process that holds the registered memory of
     * {@code memoryNodes} nodes and runs {@code hostedNodes} of them ({@code oneProcess}: every node in this one).
     * {@code atLeast}: the workload's tables are a lower bound (a workload that sizes them exactly only by looping
     * over its data, checked before that loop).
     */
    public static void check(Config c, Protocol protocol, List<TableSpec> specs, int maxAccesses, int maxPick,
                             int memoryNodes, int hostedNodes, boolean oneProcess, boolean atLeast) {
        check(c, regionsPerNode(c, protocol, protocol.header(), specs, maxAccesses, maxPick), rowsPerNode(c, protocol.header(), specs),
                memoryNodes, hostedNodes, oneProcess, atLeast);
    }

    private static void check(Config c, List<Store.PlannedRegion> regions, long rowsPerNode, int memoryNodes, int hostedNodes,
                              boolean oneProcess, boolean atLeast) {
        boolean shared = oneProcess && locationCacheBound(c) == 0;
        Need need = need(c, regions, rowsPerNode, memoryNodes, hostedNodes, shared);
        String about = atLeast ? "at least " : "about ";
        long perNode = need.registeredBytes() / Math.max(1, memoryNodes);
        long direct = availableCollecting(need.registeredBytes());
        if (need.registeredBytes() > HEADROOM * direct) {
            throw new ConfigException("the run needs " + about + gib(need.registeredBytes()) + " of registered memory (" + memoryNodes
                    + " nodes x " + gib(perNode) + "; largest regions per node: " + largest(need.registered(), memoryNodes)
                    + ") but this JVM can allocate " + gib(direct) + " (-XX:MaxDirectMemorySize; ./rcc allows 70% of RAM) and "
                    + (oneProcess ? "every node of the cluster lives in this one JVM: " : "this process holds " + memoryNodes + " node(s): ")
                    + shrink(need.registered()));
        }
        Runtime rt = Runtime.getRuntime();
        long heapFree = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (need.heapBytes() > HEADROOM * heapFree) {
            System.gc();      // an earlier run of this JVM (a sweep's) may have left garbage
            heapFree = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        }
        if (need.heapBytes() > HEADROOM * heapFree) {
            throw new ConfigException("the run needs " + about + gib(need.heapBytes()) + " of heap (" + parts(need.heap())
                    + ") but this JVM may use " + gib(heapFree) + " more (-Xmx): " + shrink(need.heap()));
        }
        long machine = memAvailable();
        // the heap this JVM has committed but not used is resident already: only growth beyond it is new memory
        long growth = need.registeredBytes() + Math.max(0, need.heapBytes() - rt.freeMemory());
        if (machine > 0 && growth > HEADROOM * machine) {
            throw new ConfigException("the run needs " + about + gib(growth) + " of memory (" + gib(need.registeredBytes())
                    + " registered: " + largest(need.registered(), 1) + "; " + gib(need.heapBytes()) + " heap) but this machine has "
                    + gib(machine) + " available (MemAvailable in /proc/meminfo): " + shrink(concat(need.registered(), need.heap())));
        }
        checkSparseSpace(need.sparse(), memoryNodes + " node(s) x " + gib(need.sparseBytes() / Math.max(1, memoryNodes)) + " in this process",
                MemoryStorage::sparseSpace, System::gc, MemoryEstimate::pause);
        sparseWarning(need.sparse(), growth, machine);
    }

    /**
     * The log's rings are sparse files in /dev/shm (decision 0158), a tmpfs whose size a container may set small (64 MiB
     * by default under Docker): a file there may be larger than its free space, and the page written beyond it faults
     * (SIGBUS: the run dies with an internal error in the middle). So their whole size, what a run that writes every
     * page takes, must fit the free space before anything is allocated (after collecting the rings of earlier runs of
     * this JVM). Where /dev/shm is missing ({@code space} -1) they are plain direct memory, counted with the rest. On
     * ucx a node's own rings are UCX's memory: the check counts them all the same (UCX's shared-memory transports keep
     * every region there).
     */
    static void checkSparseSpace(List<Part> sparse, String held, java.util.function.LongSupplier space, Runnable collect,
                                 java.util.function.LongConsumer pauseMs) {
        long bytes = Need.sum(sparse);
        long free = space.getAsLong();
        if (bytes == 0 || free < 0 || bytes <= free) return;
        free = availableCollecting((long) Math.ceil(bytes * HEADROOM), space, collect, pauseMs);
        if (bytes <= free) return;
        throw new ConfigException("the coordinator log's rings take up to " + gib(bytes) + " in /dev/shm (" + held
                + "; sparse files whose pages fill as the log is written, and a page past the free space faults) but /dev/shm has "
                + gib(free) + " free: " + shrink(sparse) + "; or give /dev/shm more space (docker run --shm-size)");
    }

    /**
     * The log's rings are sparse (decision 0158): a run touches a page or a few of each, and only a long one all of them.
     * They are not refused but named when, touched in full, they would not fit beside the rest.
     */
    private static void sparseWarning(List<Part> sparse, long rest, long machine) {
        long bytes = Need.sum(sparse);
        if (machine > 0 && bytes > 0 && rest + bytes > HEADROOM * machine) {
            System.err.println("rcc: warning: the coordinator log's rings take " + gib(bytes) + " if a run touches every page (a run of a few"
                    + " ms touches a page or a few of each); with them the run would need " + gib(rest + bytes) + " and this machine has "
                    + gib(machine) + " available: " + sparse.get(0).shrink() + " for long runs");
        }
    }

    /**
     * The launcher's check before it starts the {@code processes} node processes of a multi-process fabric on this host
     * (each with this JVM's -Xmx and -XX:MaxDirectMemorySize): each must fit its JVM, and together the machine. Node 0
     * with {@code verify} also holds every other node's memory at the end.
     */
    public static void checkLocalProcesses(Config c, int processes) {
        var protocol = c.protocolFactory().create(new org.rccj.framework.spi.ProtocolSetup(c.shape(), c.hybrid(), c.protocolOptions()));
        var setup = new org.rccj.framework.spi.WorkloadSetup(c.shape(), c.workload());
        List<TableSpec> lower = c.workloadFactory().tablesAtLeast(setup);
        String what = c.fabric() + " run";
        if (lower != null) checkLocalProcesses(c, processes, protocol, lower, 1, 0, true, what);
        var workload = c.workloadFactory().create(setup);
        checkLocalProcesses(c, processes, protocol, workload.tables(), workload.maxAccessesPerTxn(), workload.maxPickBytes(), false, what);
    }

    private static void checkLocalProcesses(Config c, int processes, Protocol protocol, List<TableSpec> specs, int maxAccesses,
                                            int maxPick, boolean atLeast, String what) {
        List<Store.PlannedRegion> regions = regionsPerNode(c, protocol, protocol.header(), specs, maxAccesses, maxPick);
        long rows = rowsPerNode(c, protocol.header(), specs);
        Need one = need(c, regions, rows, 1, 1, false);
        Need zero = c.verify() ? need(c, regions, rows, c.nodes(), 1, false) : one;
        long maxDirect = maxDirectBytes(), maxHeap = Runtime.getRuntime().maxMemory();
        String about = atLeast ? "at least " : "about ";
        Need biggest = zero;
        if (biggest.registeredBytes() > HEADROOM * maxDirect || biggest.heapBytes() > HEADROOM * maxHeap) {
            boolean direct = biggest.registeredBytes() > HEADROOM * maxDirect;
            throw new ConfigException("the " + what + "'s node " + (c.verify() ? "0 (which with verify holds every node's memory at the end)" : "processes")
                    + " need " + about + gib(direct ? biggest.registeredBytes() : biggest.heapBytes()) + (direct ? " of registered memory" : " of heap")
                    + " each (" + (direct ? largest(biggest.registered(), 1) : parts(biggest.heap())) + ") but a node's JVM may allocate "
                    + gib(direct ? maxDirect : maxHeap) + (direct ? " (-XX:MaxDirectMemorySize)" : " (-Xmx)") + ": "
                    + shrink(direct ? biggest.registered() : biggest.heap()) + (c.verify() ? NO_VERIFY : ""));
        }
        long total = zero.bytes() + (long) (processes - 1) * one.bytes();
        long machine = memAvailable();
        List<Part> rings = concat(zero.sparse(), List.of(new Part(CoordinatorLog.REGION, (long) (processes - 1) * one.sparseBytes(), zero.sparse().get(0).shrink())));
        checkSparseSpace(rings, processes + " node processes on this host" + (c.verify() ? ", node 0 with verify every node's" : ""),
                MemoryStorage::sparseSpace, System::gc, MemoryEstimate::pause);
        sparseWarning(rings, total, machine);
        if (machine > 0 && total > HEADROOM * machine) {
            throw new ConfigException("the " + what + "'s " + processes + " node processes on this host need " + about + gib(total)
                    + " together (each " + gib(one.registeredBytes()) + " registered: " + largest(one.registered(), 1) + "; " + gib(one.heapBytes())
                    + " heap" + (c.verify() ? "; node 0 with verify " + gib(zero.bytes()) : "") + ") but this machine has " + gib(machine)
                    + " available (MemAvailable in /proc/meminfo): " + shrink(concat(one.registered(), one.heap()))
                    + (c.verify() ? NO_VERIFY : "") + "; or run the nodes on several hosts (rcc node)");
        }
    }

    private static final String NO_VERIFY = "; or set " + Config.VERIFY.key() + "=false";

    private static List<Part> concat(List<Part> a, List<Part> b) {
        List<Part> all = new ArrayList<>(a);
        all.addAll(b);
        all.sort((x, y) -> Long.compare(y.bytes(), x.bytes()));
        return all;
    }

    /** The two largest parts, per node. */
    private static String largest(List<Part> parts, int nodes) {
        List<String> top = new ArrayList<>();
        for (int i = 0; i < Math.min(2, parts.size()); i++) top.add(parts.get(i).what() + " " + gib(parts.get(i).bytes() / Math.max(1, nodes)));
        return String.join(", ", top);
    }

    private static String parts(List<Part> parts) {
        List<String> s = new ArrayList<>();
        for (Part p : parts) s.add(p.what());
        return String.join(", ", s);
    }

    private static final String FEWER_NODES = "use fewer nodes";

    /** The settings that shrink the two largest parts (distinct), then fewer nodes. */
    private static String shrink(List<Part> parts) {
        java.util.LinkedHashSet<String> keys = new java.util.LinkedHashSet<>();
        for (int i = 0; i < parts.size() && keys.size() < 2; i++) keys.add(parts.get(i).shrink());
        keys.add(FEWER_NODES);
        return String.join("; or ", keys);
    }

    /** The machine's available memory (MemAvailable), bytes; 0 when unknown. */
    public static long memAvailable() {
        try {
            for (String l : java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/meminfo"))) {
                if (l.startsWith("MemAvailable:")) return Long.parseLong(l.replaceAll("[^0-9]", "")) * 1024;
            }
        } catch (java.io.IOException | RuntimeException unknown) {
            // not Linux: the JVM's limits are all we check
        }
        return 0;
    }

    /**
     * Direct memory this JVM can still allocate, after collecting the buffers of earlier runs in the same JVM
     * (sweeps and enumerations run one code after another in one process) when the first look says
     * {@code needed} does not fit: direct buffers are freed only when a GC finds them unreachable, and a run
     * that allocates little on the heap may trigger none between two runs. The JDK's own direct allocator does
     * the same (a System.gc() and short waits) before it gives up. Returning many GiB to the OS takes the
     * cleaner thread longer than those waits (a 160-node sweep point found half of its predecessor's 14.7 GiB
     * still in use), so the wait goes on for as long as every look finds more memory free than the one before.
     */
    static long availableCollecting(long needed) {
        return availableCollecting(needed, () -> maxDirectBytes() - directBytesInUse(), System::gc, MemoryEstimate::pause);
    }

    /** As above, with the available-memory reading, the collection and the pause given (tests). */
    static long availableCollecting(long needed, java.util.function.LongSupplier available, Runnable collect,
                                    java.util.function.LongConsumer pauseMs) {
        long now = available.getAsLong();
        long waitedMs = 0;
        for (int i = 0; needed > HEADROOM * now; i++) {
            long before = now;
            if (i < 8) {
                collect.run();
            } else if (waitedMs >= MAX_WAIT_MS) {
                break;
            }
            long ms = Math.min(1L << i, 250);
            pauseMs.accept(ms);
            waitedMs += ms;
            now = available.getAsLong();
            if (i >= 8 && now <= before) break;      // nothing more is being freed: it is really in use
        }
        return now;
    }

    /** The longest a check waits for the memory of earlier runs to be returned, ms. */
    static final long MAX_WAIT_MS = 30_000;

    private static void pause(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What to make smaller: the workload's size settings raised above their defaults, else its settings in general. */
    static String smaller(Config c) {
        List<String> raised = new ArrayList<>();
        for (Param p : c.workloadFactory().parameters()) {
            Object v = c.workload().get(p.key());
            if ((p.type() == Param.Type.INT || p.type() == Param.Type.LONG) && v instanceof Number n && p.defaultValue() instanceof Number d
                    && n.doubleValue() > d.doubleValue()) {
                raised.add(org.rccj.framework.config.Settings.workloadKey(p.key()) + " (" + v + ", default " + d + ")");
            }
        }
        return raised.isEmpty() ? "the workload's size settings (rcc list)" : String.join(" or ", raised);
    }

    /** The JVM's limit on direct (off-heap) memory, in bytes. */
    public static long maxDirectBytes() {
        try {
            HotSpotDiagnosticMXBean hs = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            long v = Long.parseLong(hs.getVMOption("MaxDirectMemorySize").getValue());
            if (v > 0) return v;
        } catch (RuntimeException | LinkageError e) {
            // not HotSpot: fall back to the default rule below
        }
        return Runtime.getRuntime().maxMemory();
    }

    /** Direct memory this JVM has allocated so far (other runs of a sweep, earlier regions). */
    public static long directBytesInUse() {
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) return b.getMemoryUsed();
        }
        return 0;
    }

    /** Bytes as GiB with one decimal (MiB below 1 GiB). */
    public static String gib(long bytes) {
        if (bytes < (1L << 20)) return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0);
        if (bytes < (1L << 30)) return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
