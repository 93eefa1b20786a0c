package org.rccj.fabrics.sim;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The conservative window engine (decision 0147): virtual time advances in windows {@code [T, T + L)}, {@code L} the
 * lookahead (the smallest one-way wire latency between two nodes), {@code T} the earliest pending event of any node.
 * Inside a window each logical process runs its own events on its own; what it sends to another node cannot arrive
 * before the window's end, so it waits in an outbox ({@link Outbox}: one per sending node and receiving thread, two
 * sets used in turn). At the start of the next window each thread first merges what was sent to its own nodes, source
 * node by source node in index order and each in the order sent: every node's queue gets the same events in the same
 * order whatever the number of threads, so the run is the same on one thread as on many. With {@code threads > 1} the
 * logical processes are dealt round-robin to a fixed set of threads (the caller's and {@code threads - 1} more) that
 * meet at a barrier per window; the barrier's action only takes the minimum of the threads' next times.
 */
final class WindowEngine {
    private final LogicalProcess[] lps;
    private final long lookahead;
    private final int threads;
    /** Per thread: the earliest event it holds or sent, after its window. */
    private final long[] nextAt;
    private volatile long windowStart, windowEnd;
    private int parity;
    private volatile boolean done;
    private volatile Throwable failure;
    private final AtomicLong otherCpu = new AtomicLong();

    WindowEngine(LogicalProcess[] lps, long lookahead, int threads) {
        if (lookahead < 1) throw new IllegalArgumentException("sim: the lookahead (wire.one_way_ns) must be at least 1 ns");
        this.lps = lps;
        this.lookahead = lookahead;
        this.threads = threads;
        nextAt = new long[threads];
        for (LogicalProcess lp : lps) {
            lp.boxes = new Outbox[2][threads];
            for (Outbox[] set : lp.boxes) for (int k = 0; k < threads; k++) set[k] = new Outbox();
        }
    }

    /** The start of the window being simulated (a progress display may read it from any thread). */
    long windowStart() { return windowStart; }

    /** CPU time of the threads other than the caller's, ns. */
    long otherCpuNanos() { return otherCpu.get(); }

    void run() {
        long t = Long.MAX_VALUE;
        for (LogicalProcess lp : lps) t = Math.min(t, lp.queue.peekTime());
        java.util.Arrays.fill(nextAt, t);
        nextWindow();
        if (threads == 1) {
            while (!done) {
                step(0);
                nextWindow();
            }
        } else {
            runOnThreads();
        }
        for (int k = 0; k < threads; k++) merge(k, parity);      // what the last window told (no events remain)
        if (failure != null) rethrow(failure);
    }

    /** The first failure of a simulation thread, thrown on the caller's. */
    private static void rethrow(Throwable f) {
        if (f instanceof RuntimeException r) throw r;
        if (f instanceof Error e) throw e;
        throw new IllegalStateException(f);
    }

    private void runOnThreads() {
        CyclicBarrier barrier = new CyclicBarrier(threads, this::nextWindow);
        Thread[] pool = new Thread[threads - 1];
        for (int k = 1; k < threads; k++) {
            int id = k;
            pool[k - 1] = new Thread(() -> {
                loop(id, barrier);
                ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                otherCpu.addAndGet(mx.getCurrentThreadCpuTime());
            }, "sim-window-" + k);
            pool[k - 1].setDaemon(true);
            pool[k - 1].start();
        }
        loop(0, barrier);
        for (Thread th : pool) {
            try {
                th.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("sim: interrupted while waiting for the simulation threads", e);
            }
        }
    }

    /** One thread's share, window after window: nodes k, k + threads, ... */
    private void loop(int k, CyclicBarrier barrier) {
        while (!done) {
            try {
                step(k);
            } catch (Throwable t) {
                if (failure == null) failure = t;     // the first; the barrier's action ends the run
            }
            try {
                barrier.await();
            } catch (InterruptedException | BrokenBarrierException e) {
                if (failure == null) failure = e;
                done = true;
                barrier.reset();
                return;
            }
        }
    }

    /** Thread k's window: merge what the last window sent to its nodes, run them to the window's end, note what is next. */
    private void step(int k) {
        int p = parity;
        merge(k, p ^ 1);
        long end = windowEnd, next = Long.MAX_VALUE;
        for (int i = k; i < lps.length; i += threads) {
            LogicalProcess lp = lps[i];
            lp.parity = p;
            lp.sentMin = Long.MAX_VALUE;
            lp.runWindow(end);
            next = Math.min(next, Math.min(lp.queue.peekTime(), lp.sentMin));
        }
        nextAt[k] = next;
    }

    /** Into thread k's nodes: the outboxes of set {@code p}, by sending node in index order. */
    private void merge(int k, int p) {
        for (LogicalProcess src : lps) src.boxes[p][k].drainInto(lps);
    }

    /** Between two windows (one thread; the others wait at the barrier): the next window, or the end. */
    private void nextWindow() {
        if (failure != null) {
            done = true;
            if (threads == 1) rethrow(failure);
            return;
        }
        long t = Long.MAX_VALUE;
        for (long n : nextAt) t = Math.min(t, n);
        if (t == Long.MAX_VALUE) {
            done = true;
            return;
        }
        parity ^= 1;
        windowStart = t;
        windowEnd = t + lookahead;
    }
}
