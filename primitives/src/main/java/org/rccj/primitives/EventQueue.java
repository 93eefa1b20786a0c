package org.rccj.primitives;

import java.util.Arrays;

/**
 * Min-heap of events for the simulator: deterministic and allocation-free.
 *
 * <p>A 4-ary heap whose keys are single longs kept beside the events: {@code time << SEQ_BITS | seq},
 * with {@code seq} the low bits of an insertion counter. Equal times therefore pop in insertion order
 * (unless more than 2^20 pushes separate two events of the very same nanosecond, when the wrapped
 * counter still gives a fixed, deterministic order). Times must stay below 2^43 ns (about 2.4 hours of
 * virtual time). Sifting compares primitive keys without touching the event objects.
 */
final class EventQueue {
    private static final int SEQ_BITS = 20;
    private static final long SEQ_MASK = (1L << SEQ_BITS) - 1;
    static final long MAX_TIME = (1L << (63 - SEQ_BITS)) - 1;

    private Event[] heap = new Event[1024];
    private long[] keys = new long[1024];
    private int size;
    private long nextSeq;

    int size() { return size; }
    boolean isEmpty() { return size == 0; }

    /** Time of the earliest event, or Long.MAX_VALUE when empty. */
    long peekTime() { return size == 0 ? Long.MAX_VALUE : keys[0] >>> SEQ_BITS; }

    void push(Event e, long time) {
        if (time > MAX_TIME || time < 0) throw new IllegalArgumentException("event time out of range: " + time);
        long key = (time << SEQ_BITS) | (nextSeq++ & SEQ_MASK);
        e.time = time;
        if (size == heap.length) {
            heap = Arrays.copyOf(heap, size * 2);
            keys = Arrays.copyOf(keys, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pk = keys[parent];
            if (pk <= key) break;
            heap[i] = heap[parent];
            keys[i] = pk;
            i = parent;
        }
        heap[i] = e;
        keys[i] = key;
    }

    Event pop() {
        Event top = heap[0];
        int last = --size;
        Event e = heap[last];
        long key = keys[last];
        heap[last] = null;
        if (last > 0) {
            int i = 0;
            while (true) {
                int c = 4 * i + 1;
                if (c >= last) break;
                int end = Math.min(c + 4, last);
                int best = c;
                long bk = keys[c];
                for (int j = c + 1; j < end; j++) {
                    long k = keys[j];
                    if (k < bk) { bk = k; best = j; }
                }
                if (key <= bk) break;
                heap[i] = heap[best];
                keys[i] = bk;
                i = best;
            }
            heap[i] = e;
            keys[i] = key;
        }
        return top;
    }
}
