package org.rccj.primitives;

/** What an {@link Op} asks of the fabric. One-sided verbs are executed by the target's NIC. */
public enum Verb {
    READ(true), WRITE(true), CAS(true), FAA(true),
    /** Two-sided request over SEND/RECV, answered by a handler on a worker of the target node. */
    RPC(false),
    /** Not a network operation: a wake-up the worker asked for at a given time (back-off, polling). */
    TIMER(false);

    public final boolean oneSided;

    Verb(boolean oneSided) { this.oneSided = oneSided; }
}
