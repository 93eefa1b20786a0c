package org.rccj.fabrics.sim;

import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Op;

/** The state of one node's simulated NIC: when its link and processing units are free, and the faults' pending atomic. */
final class SimNic {
    /** Link serialization of outgoing payload bytes. */
    double egressFreeAt;
    /** The NIC's processing units: one-sided requester and responder work and two-sided messages. */
    double freeAt;
    /** faults.incoherent_atomics: the NIC atomic between its read and its write (one per NIC). */
    Op pendingAtomic;
    long pendingValue, pendingWriteAt;
    /** faults.incoherent_atomics: no NIC atomic starts before this (the NIC's atomic unit is busy). */
    long atomicFreeAt;
    /** nic.on_cores: the worker core that takes the next piece of NIC work. */
    int nextCore;

    /**
     * When a message or op leaving this NIC at {@code at} with {@code bytes} of payload on the link reaches its target
     * NIC: after the egress link and the wire, or, to the own node ({@code local_access: network}), after the
     * loopback through this NIC (no link, no wire).
     */
    long leave(double at, int bytes, boolean self, CostProfile cost) {
        if (self) return Math.round(at) + loopbackOneWay(cost);
        double start = Math.max(at, egressFreeAt);
        egressFreeAt = start + bytes / cost.linkBytesPerNs;
        return Math.round(egressFreeAt) + cost.oneWayNs;
    }

    /**
     * One way through the local NIC for an op or message to the own node: half of the profile's loopback round trip
     * ({@code nic.loopback_ns}: PCIe for the WQE, the access and the completion).
     */
    static long loopbackOneWay(CostProfile cost) { return cost.loopbackNs / 2; }
}
