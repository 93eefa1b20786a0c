package org.rccj.fabrics.sim;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * The window engine's barrier (decision 0195): a fixed number of parties meet once a window; the last to arrive runs
 * the action, then lets the others go. A party that waits spins a little (a window's wait is often a few
 * microseconds), then yields, then parks until released: {@code CyclicBarrier} parks at once, and waking a parked
 * thread took tens of microseconds per window here, on the critical path of every window. Everything the parties did
 * before they arrived, and the action, happen before what any of them does after it returns.
 */
final class WindowBarrier {
    /** How long a waiting party spins, then yields, before it parks, ns. */
    static final long SPIN_NS = 20_000, YIELD_NS = 200_000;

    private final int parties;
    private final Runnable action;
    private final AtomicInteger arrived = new AtomicInteger();
    private volatile int generation;
    /** Per party: the thread when it parks (or is about to), so the releaser unparks it. */
    private final AtomicReferenceArray<Thread> parked;

    WindowBarrier(int parties, Runnable action) {
        this.parties = parties;
        this.action = action;
        parked = new AtomicReferenceArray<>(parties);
    }

    /** Party {@code k} (0 to parties - 1, each its own) arrives; returns once all arrived and the action ran. */
    void await(int k) {
        int g = generation;
        if (arrived.incrementAndGet() == parties) {
            arrived.set(0);
            try {
                action.run();
            } finally {
                generation = g + 1;
                for (int i = 0; i < parties; i++) {
                    Thread t = parked.get(i);
                    if (t != null) LockSupport.unpark(t);
                }
            }
            return;
        }
        long t0 = System.nanoTime();
        for (int spins = 0; generation == g; spins++) {
            if ((spins & 63) == 0) {
                long waited = System.nanoTime() - t0;
                if (waited > YIELD_NS) {
                    park(k, g);
                    return;
                }
                if (waited > SPIN_NS) Thread.yield();
            }
            Thread.onSpinWait();
        }
    }

    private void park(int k, int g) {
        parked.set(k, Thread.currentThread());
        while (generation == g) LockSupport.park(this);
        parked.set(k, null);
    }
}
