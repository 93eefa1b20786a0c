package org.rccj.experiments;

import java.io.PrintStream;
import java.nio.file.Path;
import org.rccj.fabrics.cluster.LocalLauncher;
import org.rccj.framework.run.Config;

/** What every command that runs experiments says of a run before it starts: its default name and directory, its warm-up. */
public final class Runs {
    /**
     * The warm-up a run on a wall-clock fabric (local, tcp, ucx) needs: the JVM compiles the code during its first
     * second (what that does to a run's figures: docs/measurements/local.md).
     */
    public static final double CLUSTER_WARMUP_MS = 1000;

    private Runs() {}

    /** Warns when a wall-clock run's warm-up is shorter than its fabric needs (its figures would include the JIT). */
    public static void warnShortWarmup(Config config, PrintStream err) {
        String m = shortWarmup(config);
        if (m != null) err.println("rcc: warning: " + m);
    }

    /** Why {@code config}'s warm-up is too short for its fabric, or null (sim: virtual time, no JIT in it). */
    public static String shortWarmup(Config config) {
        if (config.fabricFactory().virtualTime() || config.autoWarmup() != null || config.warmupMs() >= CLUSTER_WARMUP_MS) return null;
        return "warm-up " + fmt(config.warmupMs()) + " ms is shorter than a " + config.fabric() + " run needs (>= " + fmt(CLUSTER_WARMUP_MS) + " ms: "
                + (LocalLauncher.multiProcess(config) ? "every node is a fresh JVM compiling the code"
                        : "the JVM compiles the code during the first second, and the run measures it")
                + "); set " + Config.WARMUP_MS.key() + "=" + fmt(CLUSTER_WARMUP_MS) + " or " + Config.WARMUP_MS.key()
                + "=auto (until the throughput is steady)";
    }

    /** File name without its extension: the default experiment name. */
    public static String stem(Path file) {
        String n = file.getFileName().toString();
        int dot = n.lastIndexOf('.');
        return dot > 0 ? n.substring(0, dot) : n;
    }

    /** A name usable as one directory: characters other than letters, digits and . _ - + = become '_'. */
    public static String safeDirName(String name) {
        String s = name.strip().replaceAll("[^A-Za-z0-9._+=-]", "_");
        if (s.isEmpty() || s.startsWith(".")) s = "_" + s;
        return s;
    }

    private static String fmt(double ms) {
        return ms == Math.rint(ms) ? Long.toString((long) ms) : Double.toString(ms);
    }
}
