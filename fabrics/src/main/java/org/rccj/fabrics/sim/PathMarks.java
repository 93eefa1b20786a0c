package org.rccj.fabrics.sim;

import static org.rccj.primitives.CriticalPath.*;

import org.rccj.primitives.CriticalPath;
import org.rccj.primitives.Op;
import org.rccj.primitives.PathTrace;

/**
 * The simulator's critical paths ({@link CriticalPath}, {@code sim.critical_path}): the {@link PathTrace} the framework
 * reaches, and the marks that take more than one term. Each mark sits where the op's time moves in {@link SimFabric}
 * and {@link SimWorker}, after the model has computed that time, and only when paths are traced: they observe, no
 * result depends on them.
 */
final class PathMarks implements PathTrace {
    static final PathMarks TRACE = new PathMarks();

    private PathMarks() {}

    @Override
    public void start(Op op, long t) {
        SimOp o = (SimOp) op;
        o.pathAt = t;
        o.pathSet = 0;
    }

    @Override public void mark(Op op, CriticalPath term, long t) { ((SimOp) op).mark(term, t); }
    @Override public int terms(Op op) { return ((SimOp) op).pathSet; }
    @Override public int ns(Op op, int ordinal) { return ((SimOp) op).path[ordinal]; }

    /**
     * A request or reply leaving a NIC ({@code request}: the requester's) and reaching the other at {@code arrive}:
     * the egress link and the wire, or the loopback through the own NIC ({@code self}), then the last {@code receive}
     * ns, the UD receive path.
     */
    static void leg(SimOp op, long arrive, long receive, boolean self, long oneWay, boolean request) {
        long at = arrive - receive;
        if (self) {
            op.mark(request ? LOOPBACK_OUT : LOOPBACK_BACK, at);
        } else {
            op.mark(request ? EGRESS : EGRESS_BACK, at - oneWay);
            op.mark(request ? WIRE_OUT : WIRE_BACK, at);
        }
        if (receive > 0) op.mark(RPC_RECEIVE, arrive);
    }

    /** A one-sided op that reached its responder NIC at {@code now} starts there at {@code at}: QP-context misses, then the wait. */
    static void atResponder(SimOp op, long now, long qpMissDelayNs, long at) {
        op.mark(QP_MISS, Math.min(at, now + qpMissDelayNs));
        op.mark(RESPONDER_NIC_WAIT, at);
    }

    /** A one-sided op executed at {@code now}: its completion reaches the requester NIC at {@code back}. */
    static void back(SimOp op, long now, long back, long oneWay, boolean self) {
        op.mark(RESPONDER_NIC, now);
        if (self) {
            op.mark(LOOPBACK_BACK, back);
        } else {
            op.mark(WIRE_BACK, Math.min(back, now + oneWay));
            op.mark(PAYLOAD_BACK, back);
        }
    }
}
