package org.rccj.ucx;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What {@code rcc doctor} reports about UCX on this machine: the library and its version, the transports and devices
 * UCX sees, whether an RDMA device is there, the locked-memory limit RDMA registration needs, huge pages, and what to
 * install or change. Each line is "name: finding"; advice lines start with "todo:".
 */
public final class Doctor {
    private Doctor() {}

    /** The libucp in use, "1.13.1 (libucp from WHERE)", for a profile's provenance; a {@link UcxException} when there is none. */
    public static String version() {
        Ucx ucx = Ucx.load();
        return ucx.version + " (libucp from " + ucx.where + ")";
    }

    public static List<String> report() { return report(-1, null); }

    /**
     * The report; with {@code runBytesPerNode} >= 0 (the registered memory one node of {@code run} needs: its tables,
     * indexes and logs) the locked-memory limit is set against it, since an RDMA NIC registers (pins) all of it.
     */
    public static List<String> report(long runBytesPerNode, String run) {
        List<String> out = new ArrayList<>();
        List<String> todo = new ArrayList<>();
        out.add("java: " + Runtime.version() + " (" + System.getProperty("java.home") + ")");
        Ucx ucx;
        try {
            ucx = Ucx.load();
        } catch (UcxException e) {
            out.add("ucx: " + e.getMessage());
            out.add("todo: " + Ucx.INSTALL_HINT);
            return out;
        }
        out.add("ucx: " + ucx.version + " (libucp from " + ucx.where + (System.getenv(Ucx.LIB_DIR_ENV) != null ? ", " + Ucx.LIB_DIR_ENV : ", the dynamic linker's path") + ")");
        out.add("ucx transports: " + String.join(", ", transports(ucx)));
        List<String> rdma = listDir(Path.of("/sys/class/infiniband"));
        out.add("rdma devices: " + (rdma.isEmpty() ? "none (/sys/class/infiniband is empty or absent): ucx runs over shared memory and TCP here" : String.join(", ", rdma)));
        String memlock = limit("Max locked memory");
        out.add("locked memory limit (ulimit -l): " + memlock);
        long soft = softLimitBytes("Max locked memory");
        if (runBytesPerNode >= 0) {
            boolean over = soft >= 0 && runBytesPerNode > soft;
            out.add("registered memory of " + run + ": about " + mib(runBytesPerNode) + " per node (tables, indexes, logs); "
                    + (soft < 0 ? "within the locked-memory limit (unlimited)" : over
                            ? "over the locked-memory limit of " + mib(soft) + (rdma.isEmpty() ? " (no matter on shared memory and TCP, which pin nothing)" : "")
                            : "within the locked-memory limit of " + mib(soft)));
            if (over) todo.add("for " + run + " on RDMA, raise the locked-memory limit to at least " + mib(runBytesPerNode)
                    + " per process (ulimit -l unlimited, or memlock in /etc/security/limits.conf; under Slurm, PropagateResourceLimits): "
                    + "an RDMA NIC registers (pins) every table, index and log, and registration fails beyond the limit");
        } else if (!rdma.isEmpty() && soft >= 0) {
            todo.add("raise the locked-memory limit (ulimit -l unlimited, or memlock in /etc/security/limits.conf): RDMA registers every table, "
                    + "index and log ('rcc doctor CONFIG' says how much a run needs)");
        }
        out.add("huge pages: " + hugePages());
        String tls = System.getenv("UCX_TLS");
        out.add("UCX_TLS: " + (tls == null ? "(unset: UCX chooses; a run's ucx.tls narrows it)" : tls));
        if (rdma.isEmpty()) todo.add("on an RDMA cluster: install rdma-core/libibverbs and the NIC's driver, then check that 'ucx_info -d' lists rc_mlx5/rc_verbs or dc_mlx5");
        for (String t : todo) out.add("todo: " + t);
        return out;
    }

    private static List<String> transports(Ucx ucx) {
        List<String> tls = new ArrayList<>();
        try (UcxContext ctx = ucx.newContext(Map.of())) {
            for (String line : ctx.info().split("\n")) {
                // "#     resource 3  :  md 1  dev 0  flags -- posix/memory"
                int at = line.indexOf("flags");
                if (!line.contains("resource") || at < 0) continue;
                String[] w = line.substring(at).trim().split("\\s+");
                String tl = w[w.length - 1];
                if (!tls.contains(tl)) tls.add(tl);
            }
        }
        return tls;
    }

    private static List<String> listDir(Path d) {
        if (!Files.isDirectory(d)) return List.of();
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** A limit's line of /proc/self/limits as "soft hard ...", or an IOException's message after "!". */
    private static String[] limitFields(String name) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"))) {
                if (line.startsWith(name)) return line.substring(name.length()).trim().split("\\s+");
            }
            return null;
        } catch (IOException e) {
            return new String[] {"!" + e.getMessage()};
        }
    }

    private static String limit(String name) {
        String[] w = limitFields(name);
        if (w == null || w.length < 2) return w == null ? "unknown" : "unknown (" + w[0].substring(1) + ")";
        return w[0].equals("unlimited") ? "unlimited" : (Long.parseLong(w[0]) / 1024) + " KiB (soft), "
                + (w[1].equals("unlimited") ? "unlimited" : Long.parseLong(w[1]) / 1024 + " KiB") + " (hard)";
    }

    /** The soft limit in bytes; -1 when unlimited or unknown. */
    private static long softLimitBytes(String name) {
        String[] w = limitFields(name);
        return w == null || w.length < 2 || w[0].equals("unlimited") ? -1 : Long.parseLong(w[0]);
    }

    private static String mib(long bytes) {
        return bytes >= (1L << 30) ? String.format(java.util.Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30))
                : String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    private static String hugePages() {
        String thp = "unknown";
        try {
            thp = Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).trim();
        } catch (IOException ignored) {
            // not Linux, or no THP
        }
        String total = "?";
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) if (line.startsWith("HugePages_Total")) total = line.split(":")[1].trim();
        } catch (IOException ignored) {
            // not Linux
        }
        return "transparent " + thp + "; reserved HugePages_Total " + total;
    }
}
