package org.rccj.protocols.drtm;

import java.util.SplittableRandom;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.store.Hashing;

/**
 * The protocol's per-node clocks: the fabric clock plus a per-node offset drawn from the run's seed within
 * ±{@code clock_skew_us}. {@code sim} has one perfect virtual clock and {@code local} one machine clock, so
 * the skew between nodes of a real cluster is modelled here, wherever DrTM reads the time (lease ends,
 * expiry and confirmation). Readings start near {@link #ORIGIN} so they stay positive (lease words must
 * be neither free nor carry the exclusive bit).
 */
final class DrtmClock {
    static final long ORIGIN = 1_000_000_000L;
    private static final long SALT = 0x4472544d5f636c6bL;

    private final long[] offset;
    private long epoch;

    DrtmClock(long seed, int nodes, long skewNs) {
        offset = new long[nodes];
        SplittableRandom r = new SplittableRandom(Hashing.mix(seed, SALT));
        for (int n = 0; n < nodes; n++) offset[n] = skewNs == 0 ? 0 : r.nextLong(-skewNs, skewNs + 1);
    }

    /** Sets the fabric time that maps to {@link #ORIGIN} (before the run). */
    void start(long fabricNow) { epoch = fabricNow; }

    long now(CoroutineContext ctx) { return ctx.now() - epoch + ORIGIN + offset[ctx.node]; }

    long offset(int node) { return offset[node]; }

    /** Largest minus smallest offset: the skew actually drawn. */
    long spread() {
        long lo = Long.MAX_VALUE, hi = Long.MIN_VALUE;
        for (long o : offset) {
            lo = Math.min(lo, o);
            hi = Math.max(hi, o);
        }
        return hi - lo;
    }
}
