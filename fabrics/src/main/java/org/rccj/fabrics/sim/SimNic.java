package org.rccj.fabrics.sim;

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
}
