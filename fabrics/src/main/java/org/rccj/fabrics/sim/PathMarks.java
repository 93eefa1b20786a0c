package org.rccj.fabrics.sim;

import static org.rccj.primitives.CriticalPath.*;

import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Op;
import org.rccj.primitives.Verb;

/**
 * The simulator's critical-path marks that take more than one term ({@link org.rccj.primitives.CriticalPath}; each
 * call sits where the op's time moves in {@link SimFabric}). Stores only: no result depends on them.
 */
final class PathMarks {
    private PathMarks() {}

    /**
     * A request or reply leaving a NIC ({@code request}: the requester's) and reaching the other at {@code arrive}:
     * the egress link and the wire, or the loopback through the own NIC ({@code self}), then the last {@code receive}
     * ns, the UD receive path. Returns {@code arrive}.
     */
    static long leg(Op op, long arrive, long receive, boolean self, long oneWay, boolean request) {
        long at = arrive - receive;
        if (self) {
            op.mark(request ? LOOPBACK_OUT : LOOPBACK_BACK, at);
        } else {
            op.mark(request ? EGRESS : EGRESS_BACK, at - oneWay);
            op.mark(request ? WIRE_OUT : WIRE_BACK, at);
        }
        if (receive > 0) op.mark(RPC_RECEIVE, arrive);
        return arrive;
    }

    /**
     * {@link SimNic#leave} of a request ({@code request}) or reply posted at {@code at} with {@code bytes} on the link, with
     * its marks: when it reaches the other NIC, plus the UD receive path for an RPC message.
     */
    static long leave(Op op, SimNic nic, long at, int bytes, boolean self, CostProfile cost, boolean request) {
        long receive = op.verb == Verb.RPC ? cost.rpcReceiveNs : 0;
        return leg(op, nic.leave(at, bytes, self, cost) + receive, receive, self, cost.oneWayNs, request);
    }

    /** The stretch of {@code op}'s path until {@code t} is {@code term}; returns {@code t}. */
    static long at(Op op, int term, long t) {
        op.mark(term, t);
        return t;
    }

    /** A one-sided op that reached its responder NIC at {@code now} starts there at {@code at}: QP-context misses, then the wait. */
    static long atResponder(Op op, long now, long qpMissDelayNs, long at) {
        op.mark(QP_MISS, Math.min(at, now + qpMissDelayNs));
        op.mark(RESPONDER_NIC_WAIT, at);
        return at;
    }

    /** A one-sided op executed at {@code now}: its completion reaches the requester NIC at {@code back}; returns it. */
    static long back(Op op, long now, long back, long oneWay, boolean self) {
        op.mark(RESPONDER_NIC, now);
        if (self) {
            op.mark(LOOPBACK_BACK, back);
        } else {
            op.mark(WIRE_BACK, Math.min(back, now + oneWay));
            op.mark(PAYLOAD_BACK, back);
        }
        return back;
    }
}
