package org.rccj.framework.run;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;
import org.rccj.framework.runtime.WindowGate;
import org.rccj.framework.runtime.WorkerStats;
import org.rccj.primitives.ProcessGroup;

/**
 * The thread that ends a {@code warmup_ms: auto} warm-up (decision 0210). In one process, and on node 0 of a
 * multi-process run, it counts this process's commits per {@link AutoWarmup#BUCKET_MS} and, once {@link AutoWarmup#steady}
 * holds or the bound is near, opens the window {@link AutoWarmup#LEAD_MS} later (node 0 tells every node by a control
 * message first). On the other nodes it waits for node 0's word and opens the same window.
 */
final class WarmupWatch {
    private final AutoWarmup auto;
    private final WindowGate gate;
    private final ProcessGroup group;
    private final LongSupplier clock, commits;
    private final PrintStream progress;
    private volatile boolean stop;
    private Thread thread;
    // the outcome, written by the thread and read after stop() joined it
    private long runStart, windowStart = WindowGate.CLOSED;
    private boolean steady;
    private double[] tps = new double[64], endMs = new double[64];
    private long[] counts = new long[64];
    private int buckets;

    /**
     * @param group null in a single-process run
     * @param clock the fabric's clock (the workers' {@code now()})
     * @param commits this process's commits so far
     */
    WarmupWatch(AutoWarmup auto, WindowGate gate, ProcessGroup group, LongSupplier clock, LongSupplier commits, PrintStream progress) {
        this.auto = auto;
        this.gate = gate;
        this.group = group;
        this.clock = clock;
        this.commits = commits;
        this.progress = progress;
    }

    /** Starts watching a run that started at {@code start} (fabric clock); returns {@code start}. */
    long begin(long start) {
        runStart = start;
        boolean decides = group == null || group.self() == 0;
        thread = new Thread(decides ? this::decide : this::listen, "rcc-warmup");
        thread.setDaemon(true);
        thread.start();
        return start;
    }

    /** Stops the thread (the run is over) and waits for it. */
    void stop() {
        stop = true;
        if (thread == null) return;
        thread.interrupt();
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void decide() {
        long bucketNs = AutoWarmup.BUCKET_MS * 1_000_000L, leadNs = AutoWarmup.LEAD_MS * 1_000_000L;
        long boundNs = Math.round(auto.boundMs() * 1e6);
        long last = commits.getAsLong(), lastAt = runStart;
        while (!stop) {
            if (!sleepUntil(lastAt + bucketNs)) return;
            long c = commits.getAsLong(), now = clock.getAsLong();
            if (buckets == tps.length) {
                tps = Arrays.copyOf(tps, 2 * buckets);
                endMs = Arrays.copyOf(endMs, 2 * buckets);
                counts = Arrays.copyOf(counts, 2 * buckets);
            }
            counts[buckets] = c - last;
            endMs[buckets] = (now - runStart) / 1e6;
            tps[buckets++] = (c - last) * 1e9 / Math.max(1, now - lastAt);
            last = c;
            lastAt = now;
            steady = AutoWarmup.steady(tps, buckets);
            if (steady || now + leadNs - runStart >= boundNs) {
                long start = now + leadNs;
                if (group != null) group.announceWindow(start);
                windowStart = start;
                gate.open(start);
                say(steady ? String.format(Locale.ROOT, "rcc: warm-up steady after %.1f s (warmup_ms: auto); the measured window starts",
                                (start - runStart) / 1e9)
                        : String.format(Locale.ROOT, "rcc: warning: warm-up: the throughput was not steady within %.1f s (warmup_ms: %s);"
                                + " measuring anyway", auto.boundMs() / 1000, boundText()));
                return;
            }
        }
    }

    private void listen() {
        while (!stop) {
            long start = group.announcedWindow();
            if (start != WindowGate.CLOSED) {
                windowStart = start;
                gate.open(start);
                return;
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Sleeps until the fabric clock reads {@code t}; false when stopped first. */
    private boolean sleepUntil(long t) {
        long left;
        while (!stop && (left = t - clock.getAsLong()) > 0) {
            try {
                Thread.sleep(left / 1_000_000L, (int) (left % 1_000_000L));
            } catch (InterruptedException e) {
                return false;
            }
        }
        return !stop;
    }

    private String boundText() {
        return auto.boundMs() == AutoWarmup.DEFAULT_BOUND_MS ? "auto" : "auto:" + Math.round(auto.boundMs());
    }

    private void say(String line) {
        if (progress != null) progress.println(line);
    }

    /**
     * What the warm-up did (node 0 or a single process; after {@link #stop}); {@code stats} the merged stats of every
     * node, whose workers say when their window started.
     */
    RunResult.Warmup outcome(WorkerStats[][] stats) {
        double[] nodes = new double[stats.length];
        for (int n = 0; n < stats.length; n++) {
            long ws = stats[n] == null || stats[n].length == 0 || stats[n][0] == null ? WindowGate.CLOSED : stats[n][0].windowStart();
            nodes[n] = ws == WindowGate.CLOSED ? Double.NaN : (ws - stats[n][0].runStart()) / 1e6;
        }
        double took = windowStart == WindowGate.CLOSED ? Double.NaN : (windowStart - runStart) / 1e6;
        return new RunResult.Warmup(auto.boundMs(), took, steady, AutoWarmup.BUCKET_MS, Arrays.copyOf(endMs, buckets),
                Arrays.copyOf(counts, buckets), Arrays.copyOf(tps, buckets), nodes);
    }
}
