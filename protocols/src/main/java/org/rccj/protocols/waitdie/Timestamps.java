package org.rccj.protocols.waitdie;

import org.rccj.framework.api.CoroutineContext;

/**
 * A coroutine's transaction timestamps: the local clock in the high bits, the coroutine's cluster-wide id
 * (which encodes node, thread and coroutine) in the low {@link #ID_BITS} bits, so timestamps are unique and
 * ordered by start time. The clock is taken relative to the run's start ({@code ctx.runStart()}, fixed before any
 * transaction, whatever the warm-up) plus {@code 2^42}, so values stay positive (a node's clock a little behind
 * node 0's included) and fit for runs up to {@code 2^42} ns (73 minutes) long. Strictly increasing per coroutine.
 */
final class Timestamps {
    static final int ID_BITS = 20;
    private static final long ORIGIN = 1L << 42, CLOCK_LIMIT = 1L << 43;

    private final CoroutineContext ctx;
    private long last;

    Timestamps(CoroutineContext ctx) {
        if (ctx.globalId >= (1 << ID_BITS)) {
            throw new IllegalArgumentException("waitdie: coroutine id " + ctx.globalId + " needs more than " + ID_BITS
                    + " timestamp bits; use fewer nodes x threads x coroutines");
        }
        this.ctx = ctx;
    }

    long next() {
        long clock = ctx.now() - ctx.runStart() + ORIGIN;
        if (clock < 1) clock = 1;
        if (clock >= CLOCK_LIMIT) throw new IllegalStateException("waitdie: timestamp clock overflow (run longer than 73 minutes)");
        long ts = Math.max((clock << ID_BITS) | ctx.globalId, last + (1L << ID_BITS));
        last = ts;
        return ts;
    }
}
