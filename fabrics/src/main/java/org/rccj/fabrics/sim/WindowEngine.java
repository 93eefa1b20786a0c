package org.rccj.fabrics.sim;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;

/**
 * The conservative window engine (decisions 0147, 0195): virtual time advances in windows {@code [T, T + L)}, {@code L}
 * the lookahead (the smallest one-way wire latency between two nodes), {@code T} the earliest pending event of any
 * node. Inside a window each logical process runs its own events on its own; what it sends to another node cannot
 * arrive before the window's end, so it waits in the sending node's outbox ({@link Outbox}: entries chained per
 * receiving node, two sets used in turn). A node's turn in a window first merges what was sent to it in the last one, sending node by
 * sending node in index order and each in the order sent, then runs its events to the window's end: every node's
 * queue gets the same events in the same order whoever runs it, so the run is the same on one thread as on many.
 * With {@code threads > 1} a fixed set of threads (the caller's and {@code threads - 1} more) meets at a
 * {@link WindowBarrier} per window; in a window each claims its own nodes first (dealt round-robin), then any node
 * not yet claimed, from the last: a thread that is slow or descheduled leaves its remaining nodes to the others. The
 * barrier's action only takes the minimum of the nodes' next times.
 */
final class WindowEngine {
    private final LogicalProcess[] lps;
    private final long lookahead;
    private final int threads;
    /** Per node: the earliest event it holds or sent, after the window. */
    private final long[] nextAt;
    /** Per node: the window that claimed it (threads > 1). */
    private final AtomicIntegerArray claimed;
    private volatile long windowStart, windowEnd;
    private int parity, window;
    private volatile boolean done;
    private volatile Throwable failure;
    private final AtomicLong otherCpu = new AtomicLong();
    /** Tests only: called with the node's index before each node's turn, on the thread that took it; null in runs. */
    private final IntConsumer beforeNode;

    WindowEngine(LogicalProcess[] lps, long lookahead, int threads) { this(lps, lookahead, threads, null); }

    WindowEngine(LogicalProcess[] lps, long lookahead, int threads, IntConsumer beforeNode) {
        this.beforeNode = beforeNode;
        if (lookahead < 1) throw new IllegalArgumentException("sim: the lookahead (wire.one_way_ns) must be at least 1 ns");
        this.lps = lps;
        this.lookahead = lookahead;
        this.threads = threads;
        int n = lps.length;
        nextAt = new long[n];
        claimed = new AtomicIntegerArray(n);
        byte[][] marks = {new byte[n * n], new byte[n * n]};
        for (LogicalProcess lp : lps) {
            lp.boxes = new Outbox[] {new Outbox(n), new Outbox(n)};
            lp.marks = marks;
        }
    }

    /** The start of the window being simulated (a progress display may read it from any thread). */
    long windowStart() { return windowStart; }

    /** CPU time of the threads other than the caller's, ns. */
    long otherCpuNanos() { return otherCpu.get(); }

    void run() {
        for (int i = 0; i < lps.length; i++) nextAt[i] = lps[i].queue.peekTime();
        nextWindow();
        if (threads == 1) {
            while (!done) {
                for (int i = 0; i < lps.length; i++) runNode(i);
                nextWindow();
            }
        } else {
            runOnThreads();
        }
        for (LogicalProcess lp : lps) lp.merge(lps, parity);     // what the last window told (no events remain)
        if (failure != null) rethrow(failure);
    }

    /** The first failure of a simulation thread, thrown on the caller's. */
    private static void rethrow(Throwable f) {
        if (f instanceof RuntimeException r) throw r;
        if (f instanceof Error e) throw e;
        throw new IllegalStateException(f);
    }

    private void runOnThreads() {
        WindowBarrier barrier = new WindowBarrier(threads, this::nextWindow);
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

    /** One thread's share, window after window: its own nodes k, k + threads, ..., then any left, from the last. */
    private void loop(int k, WindowBarrier barrier) {
        while (!done) {
            int w = window;
            try {
                for (int i = k; i < lps.length; i += threads) if (claim(i, w)) runNode(i);
                for (int i = lps.length - 1; i >= 0; i--) if (claim(i, w)) runNode(i);
            } catch (Throwable t) {
                if (failure == null) failure = t;     // the first; the barrier's action ends the run
            }
            barrier.await(k);
        }
    }

    /** True for the one thread that takes node {@code i} in window {@code w}. */
    private boolean claim(int i, int w) { return claimed.get(i) != w && claimed.getAndSet(i, w) != w; }

    /** Node i's turn in the window: merge what the last window sent it, run it to the window's end, note what is next. */
    private void runNode(int i) {
        if (beforeNode != null) beforeNode.accept(i);
        LogicalProcess lp = lps[i];
        int p = parity;
        lp.merge(lps, p ^ 1);
        lp.parity = p;
        lp.boxes[p].clear();
        lp.sentMin = Long.MAX_VALUE;
        lp.runWindow(windowEnd);
        nextAt[i] = Math.min(lp.queue.peekTime(), lp.sentMin);
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
        window++;
        windowStart = t;
        windowEnd = t + lookahead;
    }
}
