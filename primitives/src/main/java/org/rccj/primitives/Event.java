package org.rccj.primitives;

/** Something with a time in a fabric's queue. Reused objects: a fabric never allocates per event. */
public abstract class Event {
    /** Virtual ns at which the event fires (sim) or was posted (local). */
    public long time;
    /** The fabric's own: what the event is to it (its event kind). */
    public byte kind;
    /** The fabric's event queue's own (sim's): the event's insertion number in its queue (never wraps), the next event of its nanosecond, and whether it is queued. */
    public long seq;
    public Event next;
    public boolean queued;
}
