package org.rccj.fabrics.sim;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import org.rccj.primitives.Event;
import org.rccj.primitives.Op;

/**
 * The conservative window engine (decision 0146): virtual time advances in windows {@code [T, T + L)}, {@code L} the
 * lookahead (the smallest one-way wire latency between two nodes), {@code T} the earliest pending event of any node.
 * Inside a window each logical process runs its own events on its own; what it sends to another node cannot arrive
 * before the window's end, so it waits in an outbox. At the end the outboxes are merged into their nodes' queues in a
 * fixed order (by sending node, then in the order sent), whatever the number of threads: the run is the same on one
 * thread as on many. With {@code threads > 1} the logical processes are dealt round-robin to a fixed set of threads
 * (the caller's and {@code threads - 1} more) that meet at a barrier per window; the last to arrive merges.
 */
final class WindowEngine {
    private final SimFabric.Lp[] lps;
    private final long lookahead;
    private final int threads;
    private volatile long windowStart, windowEnd;
    private volatile boolean done;
    private volatile Throwable failure;
    private final AtomicLong otherCpu = new AtomicLong();

    WindowEngine(SimFabric.Lp[] lps, long lookahead, int threads) {
        if (lookahead < 1) throw new IllegalArgumentException("sim: the lookahead (wire.one_way_ns) must be at least 1 ns");
        this.lps = lps;
        this.lookahead = lookahead;
        this.threads = threads;
    }

    /** The start of the window being simulated (a progress display may read it from any thread). */
    long windowStart() { return windowStart; }

    /** CPU time of the threads other than the caller's, ns. */
    long otherCpuNanos() { return otherCpu.get(); }

    void run() {
        nextWindow();
        if (threads == 1) {
            while (!done) {
                long end = windowEnd;
                for (SimFabric.Lp lp : lps) lp.runWindow(end);
                nextWindow();
            }
            return;
        }
        CyclicBarrier barrier = new CyclicBarrier(threads, this::nextWindow);
        Thread[] pool = new Thread[threads - 1];
        for (int k = 1; k < threads; k++) {
            int first = k;
            pool[k - 1] = new Thread(() -> {
                loop(first, barrier);
                ThreadMXBean mx = ManagementFactory.getThreadMXBean();
                otherCpu.addAndGet(mx.getCurrentThreadCpuTime());
            }, "sim-window-" + k);
            pool[k - 1].setDaemon(true);
            pool[k - 1].start();
        }
        loop(0, barrier);
        for (Thread t : pool) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("sim: interrupted while waiting for the simulation threads", e);
            }
        }
        Throwable f = failure;
        if (f instanceof RuntimeException r) throw r;
        if (f instanceof Error e) throw e;
        if (f != null) throw new IllegalStateException(f);
    }

    /** One thread's share: logical processes first, first + threads, ...; window after window. */
    private void loop(int first, CyclicBarrier barrier) {
        while (!done) {
            long end = windowEnd;
            try {
                for (int i = first; i < lps.length; i += threads) lps[i].runWindow(end);
            } catch (Throwable t) {
                if (failure == null) failure = t;     // the first; the merge ends the run
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

    /** At a window's end (one thread, the others wait): the outboxes merged in a fixed order, and the next window. */
    private void nextWindow() {
        try {
            merge();
        } catch (Throwable t) {
            if (failure == null) failure = t;
        }
        if (failure != null) {
            done = true;
            if (threads == 1) {
                Throwable f = failure;
                if (f instanceof RuntimeException r) throw r;
                if (f instanceof Error e) throw e;
                throw new IllegalStateException(f);
            }
            return;
        }
        long t = Long.MAX_VALUE;
        for (SimFabric.Lp lp : lps) t = Math.min(t, lp.queue.peekTime());
        if (t == Long.MAX_VALUE) {
            done = true;
            return;
        }
        windowStart = t;
        windowEnd = t + lookahead;
    }

    private void merge() {
        for (SimFabric.Lp src : lps) {
            Event[] out = src.out;
            int[] to = src.outTo;
            for (int i = 0, n = src.outN; i < n; i++) {
                Event e = out[i];
                out[i] = null;
                lps[to[i]].queue.push(e, e.time);
            }
            src.outN = 0;
            if (!src.landed.isEmpty()) {
                for (Op op : src.landed) op.landedOnOneThread();
                src.landed.clear();
            }
            if (!src.handled.isEmpty()) {
                for (Op op : src.handled) op.handled = true;
                src.handled.clear();
            }
        }
    }
}
