package org.rccj.framework.stats;

import java.util.Locale;
import java.util.Map;

/**
 * Counts of a protocol's own events (an enum's constants) for summary.json's {@code extra} block: one instance per
 * coroutine (thread-confined, no sharing), summed after the run. A constant {@code READ_RETRIES} of a protocol
 * reporting with prefix {@code "mvcc_"} appears as {@code mvcc_read_retries}, in the enum's order.
 */
public final class EventCounts<E extends Enum<E>> {
    private final Class<E> events;
    private final long[] counts;

    public EventCounts(Class<E> events) {
        this.events = events;
        this.counts = new long[events.getEnumConstants().length];
    }

    public void inc(E e) { counts[e.ordinal()]++; }
    public void add(E e, long n) { counts[e.ordinal()] += n; }
    public long get(E e) { return counts[e.ordinal()]; }

    /** Adds every count of {@code o} to this. */
    public void add(EventCounts<E> o) {
        for (int i = 0; i < counts.length; i++) counts[i] += o.counts[i];
    }

    /** Puts every count into {@code metrics} as {@code prefix + the constant's name in lower case}. */
    public void report(String prefix, Map<String, Double> metrics) {
        for (E e : events.getEnumConstants()) metrics.put(prefix + e.name().toLowerCase(Locale.ROOT), (double) get(e));
    }
}
