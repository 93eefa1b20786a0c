package org.rccj.framework.runtime;

/**
 * The measured window of a run whose warm-up ends while it runs ({@code warmup_ms: auto}, decision 0210): opened
 * once, by the thread that watches the throughput (or, on a node other than node 0, by the one that hears node 0's
 * decision), and picked up by each worker at its next scheduling point ({@code CoroutineWorker.mark}), which then
 * measures {@code [start, start + durationNs)} on its own clock. A run with a fixed warm-up has no gate.
 */
public final class WindowGate {
    /** Not opened yet. */
    public static final long CLOSED = Long.MAX_VALUE;
    private final long durationNs;
    private volatile long start = CLOSED;

    public WindowGate(long durationNs) { this.durationNs = durationNs; }

    /** Opens the window at {@code start} (fabric clock, ns); later calls change nothing. */
    public void open(long start) {
        if (start == CLOSED) throw new IllegalArgumentException("a window start of Long.MAX_VALUE");
        synchronized (this) {
            if (this.start == CLOSED) this.start = start;
        }
    }

    /** The window's start (fabric clock, ns), or {@link #CLOSED}. */
    public long start() { return start; }

    public long durationNs() { return durationNs; }
}
