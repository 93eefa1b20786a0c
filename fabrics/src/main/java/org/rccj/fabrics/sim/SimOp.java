package org.rccj.fabrics.sim;

import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.NicAction;
import org.rccj.primitives.Op;

/**
 * An op on the simulator: the work request ({@link Op}) and what the engine keeps for it while it is in flight, in the
 * same object (the simulator is bound by memory accesses, and the op's own cache lines are the ones it touches anyway).
 * It is also the engine's event: its time, kind and event-queue link ({@link EventQueue}). Sim endpoints make them
 * ({@link SimWorker#newOp}); a worker's RUN event is one too, with no verb.
 */
final class SimOp extends Op {
    /** Virtual ns at which the event fires. */
    long time;
    /** What the event is to the engine ({@code SimFabric.K_*}). */
    byte kind;
    /** The event queue's own: the insertion number in its queue (never wraps), the next event of its ns, whether queued. */
    long seq;
    SimOp next;
    boolean queued;

    /** Run by the target NIC before (or instead of) the memory operation ({@link org.rccj.primitives.SmartNic#atNic}); reset by every builder. */
    NicAction nicAction;
    /** A one-sided op the requester NIC generates itself ({@link org.rccj.primitives.SmartNic#byNic}); reset by every builder. */
    boolean fromNic;
    /** This op rang the doorbell of its batch (the NIC fetches the batch's WQEs once). */
    boolean rang;
    /** A passive (unsignaled) RPC whose handler has run; its sender learns it from a later reply. */
    boolean handled;
    /** Bytes of a torn READ transferred so far (0 = not started; its NIC action runs only then). */
    int tornDone;

    /**
     * The critical path ({@code sim.critical_path}; null when off): the terms of the current trip in ns, indexed by
     * {@link CriticalPath#ordinal()} (ints: one stretch of an op's path is far below 2^31 ns), which of them this trip
     * set, and when the last one ended.
     */
    final int[] path;
    int pathSet;
    long pathAt;

    SimOp(boolean paths) { path = paths ? new int[CriticalPath.COUNT] : null; }

    @Override
    protected void newRequest() {
        nicAction = null;
        fromNic = false;
    }

    /** The stretch from the last mark to {@code t} belongs to {@code term} (added when the term already has some). */
    void mark(CriticalPath term, long t) {
        int i = term.ordinal(), bit = 1 << i;
        int d = (int) (t - pathAt);
        if ((pathSet & bit) != 0) d += path[i];
        path[i] = d;
        pathSet |= bit;
        pathAt = t;
    }
}
