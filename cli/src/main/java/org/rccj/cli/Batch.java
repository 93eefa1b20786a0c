package org.rccj.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.results.ResultWriter;
import org.rccj.results.RunMetrics;

/**
 * Runs the points of a sweep or an enumeration: each point is one experiment with its own result directory.
 * A point whose directory already holds a finished result of the same config is reused, not rerun
 * (resumable). The rest run on a pool of {@code jobs} threads (each sim run is single-threaded and
 * independent); {@code local}-fabric runs measure wall-clock time and run one at a time.
 */
final class Batch {
    /** One experiment of a batch: its name (also its directory name), resolved config and result directory. */
    record Point(String name, Config config, Path dir) {}

    /** A finished point: the figures of its summary.json, and whether they were reused from an earlier run. */
    record Done(Point point, RunMetrics metrics, boolean reused) {}

    private Batch() {}

    /** Whether {@code p}'s directory holds a finished result of exactly its config. */
    static boolean finished(Point p) {
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
    static void checkOutDir(String command, Path out) {
        if (!Files.exists(out)) return;
        if (!Files.isDirectory(out)) throw new ConfigException(command + ": --out " + out + " exists and is not a directory");
        if (Files.exists(out.resolve("sweep.csv")) || Files.exists(out.resolve("hybrid.csv"))) return;
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
    static void checkPointDirs(String command, List<Point> points) {
        for (Point p : points) {
            String problem = ResultWriter.problemWith(p.dir());
            if (problem != null) throw new ConfigException(command + ": point " + p.name() + ": " + problem);
        }
    }

    /** Jobs to use: 1 when any point runs on a fabric that measures wall-clock time, else {@code jobs}. */
    static int effectiveJobs(List<Point> points, int jobs) {
        return wallClockFabric(points) != null ? 1 : jobs;
    }

    /** The first fabric among the points whose time is wall-clock time (its runs must not share the cores), or null. */
    private static String wallClockFabric(List<Point> points) {
        for (Point p : points) if (!p.config().fabricFactory().virtualTime()) return p.config().fabric();
        return null;
    }

    /**
     * Runs the points not yet finished; returns every point's result in the order given.
     * @throws ConfigException for bad input found while running (e.g. a workload setting too small), naming the point
     */
    static List<Done> run(String command, List<Point> points, int jobs, Context ctx) throws Exception {
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
        Progress progress = new Progress(ctx.err(), Progress.terminal(ctx.err()), points.size(), reusedCount);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicReference<Point> failedPoint = new AtomicReference<>();
        PrintStream quiet = new PrintStream(PrintStream.nullOutputStream());
        ExecutorService pool = Executors.newFixedThreadPool(j, r -> {
            Thread t = new Thread(r, "rcc-" + command);
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Point p : todo) {
                futures.add(pool.submit(() -> {
                    if (stop.get()) return;
                    try {
                        long t0 = System.nanoTime();
                        RunResult r = ctx.runner().run(p.config(), quiet);
                        if (r == null) throw new IllegalStateException("the experiment runner returned no result");
                        if (r.config == null) r.config = p.config();
                        try {
                            ResultWriter.write(r, p.dir());
                        } catch (IOException e) {
                            throw new ConfigException("--out " + p.dir() + ": cannot write the results: "
                                    + ConfigLoader.oneLine(String.valueOf(e.getMessage())));
                        }
                        progress.finished(p.name(), (System.nanoTime() - t0) / 1e9);
                    } catch (Throwable t) {
                        if (failure.compareAndSet(null, t)) failedPoint.set(p);
                        stop.set(true);
                    }
                }));
            }
            for (Future<?> f : futures) f.get();
        } finally {
            pool.shutdownNow();
            progress.close();
        }
        Throwable t = failure.get();
        if (t != null) {
            String where = command + ": point " + failedPoint.get().name() + ": ";
            if (t instanceof ConfigException) throw new ConfigException(where + t.getMessage());
            throw new IllegalStateException(where + t, t);
        }
        List<Done> out = new ArrayList<>();
        for (int i = 0; i < points.size(); i++) {
            Point p = points.get(i);
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

    /** Points whose verification ran and failed. */
    static List<Done> failedVerification(List<Done> done) {
        List<Done> out = new ArrayList<>();
        for (Done d : done) if (d.metrics().verificationChecked() && !d.metrics().verificationPassed()) out.add(d);
        return out;
    }
}
