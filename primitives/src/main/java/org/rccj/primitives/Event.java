package org.rccj.primitives;

/** Something with a time in a fabric's queue. Reused objects: a fabric never allocates per event. */
public abstract class Event {
    /** Virtual ns at which the event fires (sim) or was posted (local). */
    public long time;
    byte kind;
    /** Sim's {@link EventQueue}: the event's insertion number (low bits), the next event of its nanosecond, and whether it is queued. */
    int seq;
    Event next;
    boolean queued;
}
