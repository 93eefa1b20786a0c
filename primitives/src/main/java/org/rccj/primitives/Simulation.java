package org.rccj.primitives;

/**
 * A fabric that simulates the cluster ({@code sim}), reached through {@link Fabric#capability}: how it runs, what it
 * processed. Nothing here changes a result.
 */
public interface Simulation {
    /** Threads that simulate the cluster ({@code sim.threads} as used: 1 once forced sequential). */
    int simThreads();

    /** Simulates on one thread whatever {@code sim.threads} says: the run has a feature that cannot run in parallel. */
    void sequential();

    /** Virtual time reached so far, ns; approximate when read from another thread (a progress display). */
    long virtualNow();

    /** Events processed in {@link Fabric#run} (exact once the run is over). */
    long events();

    /** CPU time spent on simulation threads other than the one that called {@link Fabric#run}, ns. */
    long otherThreadsCpuNanos();
}
