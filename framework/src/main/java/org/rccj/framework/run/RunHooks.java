package org.rccj.framework.run;

import org.rccj.framework.runtime.Cluster;

/**
 * Hooks into a run: tests (e.g. corrupt the store after the run to show an invariant check fails) and the
 * CLI's progress display inside a long run.
 */
public interface RunHooks {
    RunHooks NONE = new RunHooks() {};

    /**
     * What a progress display can read while the workers run (from another thread; figures are approximate).
     * @param totalNs warm-up plus measured time, ns (virtual on sim, wall-clock on local); under {@code warmup_ms: auto}
     *                the longest it can be (the bound plus the window)
     * @param atMost whether {@code totalNs} is such a bound
     * @param virtual whether elapsed time is the simulator's virtual time
     */
    record Live(long totalNs, boolean atMost, boolean virtual, java.util.function.LongSupplier elapsedNs, java.util.function.LongSupplier commits) {}

    /** Just before the workers start. */
    default void running(Live live) {}

    /** When the workers have stopped (normally or not), before {@link #afterRun}. */
    default void stopped() {}

    /** After every transaction finished, before verification. */
    default void afterRun(Cluster cluster) {}
}
