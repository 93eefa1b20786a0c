package org.rccj.experiments;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.results.ResultWriter;
import org.rccj.results.RunMetrics;
import org.rccj.experiments.config.ConfigLoader;

/**
 * Runs the points of a sweep or an enumeration: each point is one experiment with its own result directory.
 * A point whose directory already holds a finished result of the same config is reused, not rerun
 * (resumable). The rest run on a pool of {@code jobs} threads (each sim run is single-threaded and
 * independent); {@code local}-fabric runs measure wall-clock time and run one at a time.
 */
public final class Batch {
    /** One experiment of a batch: its name (also its directory name), resolved config and result directory. */
    public record Point(String name, Config config, Path dir) {}

    /**
     * A point after the batch: the figures of its summary.json and whether they were reused from an earlier run,
     * or (metrics null) why it failed and whether that was an internal error.
     */
    public record Done(Point point, RunMetrics metrics, boolean reused, String failed, boolean internal) {
        Done(Point point, RunMetrics metrics, boolean reused) { this(point, metrics, reused, null, false); }
        public boolean ok() { return failed == null; }
    }

    private Batch() {}

    /** Whether {@code p}'s directory holds a finished result of exactly its config. */
    public static boolean finished(Point p) {
        if (!RunMetrics.isResultDir(p.dir())) return false;
        try {
            return RunMetrics.read(p.dir()).configText().equals(RunMetrics.configText(p.config()));
        } catch (IOException | RuntimeException e) {
            return false; // unreadable or from another version: run it again
        }
    }

    /**
     * Checks the output directory of a batch: absent, empty, or one that holds earlier batch results (a
     * sweep.csv or hybrid.csv, or result directories). Anything else is refused (never written into).
     */
    public static void checkOutDir(String command, Path out) {
        if (!Files.exists(out)) return;
        if (!Files.isDirectory(out)) throw new ConfigException(command + ": --out " + out + " exists and is not a directory");
        if (Files.exists(out.resolve("sweep.csv")) || Files.exists(out.resolve("hybrid.csv"))) return;
        if (Files.exists(out.resolve(Provenance.FILE))) return; // interrupted before a point finished: provenance.json judges it
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(out)) {
            boolean empty = true;
            for (Path p : ds) {
                empty = false;
                if (RunMetrics.isResultDir(p)) return;
            }
            if (empty) return;
        } catch (IOException e) {
            throw new ConfigException(command + ": --out " + out + " cannot be read: " + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
        }
        throw new ConfigException(command + ": --out " + out + " exists and holds no results of an earlier " + command
                + " (no sweep.csv, hybrid.csv or result directories); refusing to write into it; choose another --out");
    }

    /** Checks every point's directory before anything runs. */
    public static void checkPointDirs(String command, List<Point> points) {
        for (Point p : points) {
            String problem = ResultWriter.problemWith(p.dir());
            if (problem != null) throw new ConfigException(command + ": point " + p.name() + ": " + problem);
        }
    }

    /** Jobs to use: 1 when any point runs on a fabric that measures wall-clock time, else {@code jobs}. */
    public static int effectiveJobs(List<Point> points, int jobs) {
        return wallClockFabric(points) != null ? 1 : jobs;
    }

    /** The first fabric among the points whose time is wall-clock time (its runs must not share the cores), or null. */
    private static String wallClockFabric(List<Point> points) {
        for (Point p : points) if (!p.config().fabricFactory().virtualTime()) return p.config().fabric();
        return null;
    }

    /**
     * Runs the points not yet finished; returns every point's outcome in the order given. A point that fails
     * (bad input found while running, out of memory, an internal error) is recorded as failed and the others go
     * on; {@link #exitCode} reports them at the end. Interrupting the process (Ctrl-C) prints how many points
     * are done: finished points are complete result directories, and the same command resumes.
     */
    public static List<Done> run(String command, List<Point> points, int jobs, Context ctx) throws Exception {
        List<Point> todo = new ArrayList<>();
        boolean[] reused = new boolean[points.size()];
        for (int i = 0; i < points.size(); i++) {
            if (finished(points.get(i))) reused[i] = true;
            else todo.add(points.get(i));
        }
        int reusedCount = points.size() - todo.size();
        int j = Math.max(1, Math.min(effectiveJobs(points, jobs), Math.max(1, todo.size())));
        ctx.err().println(command + ": " + points.size() + " runs" + (reusedCount > 0 ? " (" + reusedCount + " finished earlier, reused)" : "")
                + (todo.isEmpty() ? "" : "; running " + todo.size() + " with " + j + (j == 1 ? " job" : " jobs")
                + (j < jobs && wallClockFabric(points) != null ? " (" + wallClockFabric(points) + " fabric: one run at a time)" : "")));
        for (String w : todo.stream().map(p -> Runs.shortWarmup(p.config())).filter(java.util.Objects::nonNull).distinct().toList()) {
            ctx.err().println("rcc: warning: " + w);
        }
        Progress progress = new Progress(ctx.err(), Progress.terminal(ctx.err()), points.size(), reusedCount);
        Map<Point, String> failures = new ConcurrentHashMap<>();
        Map<Point, Boolean> internal = new ConcurrentHashMap<>();
        PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
        Thread onInterrupt = new Thread(() -> progress.interrupted(), "rcc-interrupted");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        ExecutorService pool = Executors.newFixedThreadPool(j, r -> {
            Thread t = new Thread(r, "rcc-" + command);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Point p : todo) {
                futures.add(pool.submit(() -> {
                    long t0 = System.nanoTime();
                    try {
                        RunResult r = ctx.runner().run(p.config(), quiet);
                        if (r == null) throw new IllegalStateException("the experiment runner returned no result");
                        if (r.config == null) r.config = p.config();
                        try {
                            ResultWriter.write(r, p.dir());
                        } catch (IOException e) {
                            throw new ConfigException("--out " + p.dir() + ": cannot write the results: " + OutputPaths.reason(e));
                        }
                        progress.finished(p.name(), (System.nanoTime() - t0) / 1e9);
                    } catch (ConfigException e) {
                        failures.put(p, ConfigLoader.oneLine(String.valueOf(e.getMessage())));
                        progress.failed(p.name(), (System.nanoTime() - t0) / 1e9);
                    } catch (OutOfMemoryError e) {
                        failures.put(p, Failures.outOfMemory(e));
                        progress.failed(p.name(), (System.nanoTime() - t0) / 1e9);
                    } catch (org.rccj.fabrics.cluster.ClusterFailure e) {
                        // a node of a multi-process run failed, hung or was stopped: its own line says which and
                        // why; no stack trace (not a bug of rcc), but not bad input either (exit 3, as for one run)
                        failures.put(p, ConfigLoader.oneLine(String.valueOf(e.getMessage())));
                        internal.put(p, true);
                        progress.failed(p.name(), (System.nanoTime() - t0) / 1e9);
                    } catch (Throwable t) {
                        failures.put(p, "internal error: " + ConfigLoader.oneLine(String.valueOf(t)) + "; stack trace in "
                                + Failures.log(t, new String[] {command, "point " + p.name()}));
                        internal.put(p, true);
                        progress.failed(p.name(), (System.nanoTime() - t0) / 1e9);
                    }
                }));
            }
            for (Future<?> f : futures) f.get();
        } finally {
            pool.shutdownNow();
            progress.close();
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
        List<Done> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
            String failed = failures.get(p);
            if (failed != null) {
                out.add(new Done(p, null, false, failed, internal.containsKey(p)));
                continue;
            }
            RunMetrics m;
            try {
                m = RunMetrics.read(p.dir());
            } catch (IOException e) {
                throw new IllegalStateException(p.dir() + ": cannot read the result just written: " + e.getMessage(), e);
            }
            out.add(new Done(p, m, reused[i]));
        }
        return out;
    }

    /** The points that finished (not failed). */
    public static List<Done> succeeded(List<Done> done) {
        List<Done> out = new ArrayList<>();
        for (Done d : done) if (d.ok()) out.add(d);
        return out;
    }

    /**
     * The exit code of a batch: points that failed give 3 when any failed on an internal error or a failed node of a
     * multi-process run, else 2, and are
     * named on stderr; otherwise verification failures give 1; else 0.
     */
    public static int exitCode(String command, Context ctx, List<Done> done) {
        List<String> names = new ArrayList<>();
        boolean anyInternal = false;
        for (Done d : done) {
            if (d.ok()) continue;
            names.add(d.point().name() + " (" + d.failed() + ")");
            anyInternal |= d.internal();
        }
        if (!names.isEmpty()) {
            ctx.err().println("rcc: " + command + ": " + names.size() + " of " + done.size() + " runs failed: " + String.join("; ", names)
                    + "; the others are complete; fix the cause and run the same command again to run the failed ones");
            return anyInternal ? Exit.INTERNAL_ERROR : Exit.BAD_INPUT;
        }
        List<Done> failed = failedVerification(done);
        if (failed.isEmpty()) return Exit.OK;
        for (Done d : failed) names.add(d.point().name());
        ctx.err().println("rcc: verification failed in " + failed.size() + " run(s): " + String.join(", ", names) + " (exit code 1)");
        return Exit.VERIFICATION_FAILED;
    }

    /** Points whose verification ran and failed. */
    public static List<Done> failedVerification(List<Done> done) {
        List<Done> out = new ArrayList<>();
        for (Done d : done) if (d.ok() && d.metrics().verificationChecked() && !d.metrics().verificationPassed()) out.add(d);
        return out;
    }
}
