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
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.TableSpec;

/**
 * The registered memory a run needs (every node's tables, indexes and coordinator-log rings), computed from
 * the config before anything is allocated, and the check that it fits in what this JVM may allocate. A run
 * that cannot fit is refused with the estimate and what to change, instead of failing half-way through loading.
 * The history of a run with {@code verify} or {@code history} grows with its commits and is not included.
 */
public final class MemoryEstimate {
    /** Share of the remaining direct memory a run may plan to use (the rest: protocol buffers, slack). */
    static final double HEADROOM = 0.9;

    private MemoryEstimate() {}

    /** Bytes of registered memory one node needs: its tables and indexes, plus its coordinator-log rings. */
    public static long bytesPerNode(Config c, HeaderLayout header, List<TableSpec> specs) {
        long sum = CoordinatorLog.regionBytes(c.nodes(), c.threads(), c.replication());
        for (Store.PlannedRegion r : Store.plannedRegions(header, specs, c.nodes())) sum += Math.max(8, r.bytes());
        return sum;
    }

    /** Bytes of registered memory one node of the run {@code c} needs (its protocol's and workload's layout; nothing is allocated). */
    public static long bytesPerNode(Config c) {
        var protocol = c.protocolFactory().create(new org.rccj.framework.spi.ProtocolSetup(c.shape(), c.hybrid(), c.protocolOptions()));
        var workload = c.workloadFactory().create(new org.rccj.framework.spi.WorkloadSetup(c.shape(), c.workload()));
        return bytesPerNode(c, protocol.header(), workload.tables());
    }

    /**
     * Refuses (bad input, exit 2) a run whose registered memory cannot be allocated in this JVM.
     * @throws ConfigException with the estimate, the limit and what to change
     */
    public static void check(Config c, HeaderLayout header, List<TableSpec> specs) { check(c, header, specs, c.nodes()); }

    /**
     * The same for a process that holds the memory of {@code nodesHere} of the nodes (tcp: its own node, node 0
     * with {@code verify} every node's, for the final check).
     */
    public static void check(Config c, HeaderLayout header, List<TableSpec> specs, int nodesHere) {
        List<Store.PlannedRegion> regions = Store.plannedRegions(header, specs, c.nodes());
        long perNode = bytesPerNode(c, header, specs);
        long total = perNode * nodesHere;
        long available = availableCollecting(total);
        if (total <= HEADROOM * available) return;
        List<Store.PlannedRegion> big = new ArrayList<>(regions);
        big.sort((a, b) -> Long.compare(b.bytes(), a.bytes()));
        List<String> top = new ArrayList<>();
        for (int i = 0; i < Math.min(2, big.size()); i++) top.add(big.get(i).name() + " " + gib(big.get(i).bytes()));
        throw new ConfigException("the run needs about " + gib(total) + " of registered memory (" + nodesHere + " nodes x " + gib(perNode)
                + "; largest regions per node: " + String.join(", ", top) + ") but this JVM can allocate " + gib(available)
                + " (-XX:MaxDirectMemorySize; ./rcc allows 70% of RAM) and "
                + (nodesHere == c.nodes() ? "every node of the cluster lives in this one JVM: " : "this process holds " + nodesHere + " node(s): ")
                + smaller(c) + ", or use fewer threads or nodes");
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
                raised.add("workload." + p.key() + " (" + v + ", default " + d + ")");
            }
        }
        return raised.isEmpty() ? "make the workload smaller (its size settings: rcc list)" : "lower " + String.join(" or ", raised);
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
        if (bytes < (1L << 30)) return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }
}
