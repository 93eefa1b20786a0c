package org.rccj.protocols.calvin;

import java.util.concurrent.atomic.AtomicLong;

/**
 * How far one node got with the epochs, for its sequencer's barrier: the last epoch its scheduler consumed, the
 * parts it had handed out by then, and the parts its participant loops finished. The node is done with epoch
 * {@code e} once the scheduler consumed {@code e} and every part handed out so far is finished (the barrier keeps
 * the scheduler from consuming {@code e + 1} before this node's sequencer passed it, so "so far" is "through e").
 * Written by the scheduler and the participant loops, read by the sequencer, possibly on different threads.
 */
final class EpochProgress {
    private volatile long consumedEpoch = -1;
    private volatile long handedOut;
    private final AtomicLong finished = new AtomicLong();

    /** The scheduler consumed {@code epoch}, having handed out {@code parts} parts in all. */
    void consumed(long epoch, long parts) {
        handedOut = parts;
        consumedEpoch = epoch;
    }

    void partDone() { finished.incrementAndGet(); }

    boolean done(long epoch) {
        if (consumedEpoch < epoch) return false;
        return finished.get() >= handedOut;
    }
}
