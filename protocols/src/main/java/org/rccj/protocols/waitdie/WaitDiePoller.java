package org.rccj.protocols.waitdie;

import org.rccj.framework.api.CoroutineContext;

/**
 * A worker's service coroutine that re-attempts the RPC lock requests its handler parked, for hybrids with an
 * RPC LOCK and a one-sided RELEASE: a one-sided RELEASE frees a lock without running any handler. It
 * polls every {@code pollNs} while it has waiters (every {@code 4 * pollNs} otherwise) and returns after the
 * run's end once none is left (after the end, waiting requests give up instead of parking).
 */
final class WaitDiePoller implements Runnable {
    private final CoroutineContext ctx;
    private final WaitTable table;
    private final long pollNs;

    WaitDiePoller(CoroutineContext ctx, WaitTable table, long pollNs) {
        this.ctx = ctx;
        this.table = table;
        this.pollNs = pollNs;
    }

    @Override
    public void run() {
        while (true) {
            boolean ended = ctx.now() >= ctx.endTime();
            boolean left = table.poll(ctx.worker(), ended);
            table.sendReplies(ctx.worker());
            if (ended && !left) return;
            ctx.sleep(left ? pollNs : 4 * pollNs);
        }
    }
}
