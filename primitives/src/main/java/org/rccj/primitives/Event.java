package org.rccj.primitives;

/** Something with a time in a fabric's queue. Reused objects: a fabric never allocates per event. */
public abstract class Event {
    /** Virtual ns at which the event fires (sim) or was posted (local). */
    public long time;
    byte kind;
}
