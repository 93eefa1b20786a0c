package org.rccj.protocols.calvin;

import org.rccj.framework.api.CoroutineContext;

/**
 * How a coroutine waits for registered memory to change (a notify word, a batch slot, a lock word). With
 * {@code sleepNs} 0 it only yields between polls: a pure spin, as in RCC (sim's default: spinning costs only
 * simulator events there). Otherwise it yields for {@code sleepNs} after its last progress, then sleeps
 * {@code sleepNs} between polls, so that on real threads an idle worker thread parks instead of spinning.
 */
final class Poller {
    private final CoroutineContext ctx;
    private final long sleepNs;
    private long since = -1;

    Poller(CoroutineContext ctx, long sleepNs) {
        this.ctx = ctx;
        this.sleepNs = sleepNs;
    }

    void reset() { since = -1; }

    /** Nothing changed: let the worker's other coroutines and its event loop run. */
    void idle() {
        if (sleepNs == 0) {
            ctx.yieldNow();
            return;
        }
        long now = ctx.now();
        if (since < 0) since = now;
        if (now - since < sleepNs) ctx.yieldNow();
        else ctx.sleep(sleepNs);
    }
}
