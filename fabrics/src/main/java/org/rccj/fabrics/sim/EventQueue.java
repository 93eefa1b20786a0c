package org.rccj.fabrics.sim;

import org.rccj.primitives.Event;
import java.util.Arrays;

/**
 * The simulator's pending events, popped in (time, insertion) order: deterministic and allocation-free.
 *
 * <p>Order: every push gets the key {@code time << SEQ_BITS | seq}, with {@code seq} the low
 * {@value #SEQ_BITS} bits of an insertion counter, and {@link #pop} returns the event of the smallest key.
 * Equal times therefore pop in insertion order (unless more than 2^20 pushes separate two events of the
 * very same nanosecond, when the wrapped counter still gives a fixed, deterministic order). Times must
 * stay below 2^43 ns (about 2.4 hours of virtual time).
 *
 * <p>Structure: a calendar of one bucket per nanosecond over a window of {@code 2^windowBits} ns from the
 * time of the last pop (almost every event the simulator schedules falls in it: wire, NIC and CPU
 * delays are a few microseconds at most), plus a 4-ary heap of keys for events beyond the window (back-off
 * timers) or before it. A bucket holds the events of one nanosecond as a list in key order, which is
 * insertion order except across a wrap of the counter; a bitmap of non-empty buckets finds the next one.
 * Push into the window and pop from it are O(1) apart from that bitmap scan, and touch no heap; the
 * smaller of the window's first key and the heap's first key is popped, so the order is exactly that of
 * one heap over all keys.
 */
final class EventQueue {
    static final int SEQ_BITS = 20;
    private static final long SEQ_MASK = (1L << SEQ_BITS) - 1;
    static final long MAX_TIME = (1L << (63 - SEQ_BITS)) - 1;
    /** 8192 ns: well beyond a round trip plus NIC queueing in every shipped profile. */
    static final int DEFAULT_WINDOW_BITS = 13;

    private long nextSeq;

    // the calendar: bucket b holds the events of the one time t in [cursor, cursor + window) with t & mask == b
    private final int mask;
    private final Event[] first, last;
    /** Bit b set when bucket b is not empty. */
    private final long[] occupied;
    /** No calendar event is earlier than this (the time of the last pop, never decreasing). */
    private long cursor;
    /** Time of the earliest calendar event (Long.MAX_VALUE when the calendar is empty). */
    private long calendarMin = Long.MAX_VALUE;
    private int calendarSize;

    // the heap of events outside the window
    private Event[] heap = new Event[64];
    private long[] keys = new long[64];
    private int heapSize;

    EventQueue() { this(DEFAULT_WINDOW_BITS); }

    /** With a calendar window of {@code 2^windowBits} ns (6 to 24). */
    EventQueue(int windowBits) {
        if (windowBits < 6 || windowBits > 24) throw new IllegalArgumentException("windowBits " + windowBits);
        int window = 1 << windowBits;
        mask = window - 1;
        first = new Event[window];
        last = new Event[window];
        occupied = new long[window >>> 6];
    }

    int size() { return calendarSize + heapSize; }
    boolean isEmpty() { return calendarSize + heapSize == 0; }

    /** Time of the earliest event, or Long.MAX_VALUE when empty. */
    long peekTime() {
        return heapSize == 0 ? calendarMin : Math.min(calendarMin, keys[0] >>> SEQ_BITS);
    }

    /** Queues {@code e} to fire at {@code time}; an event may be queued at most once at a time. */
    void push(Event e, long time) {
        if (time > MAX_TIME || time < 0) throw new IllegalArgumentException("event time out of range: " + time);
        if (e.queued) throw new IllegalStateException("event queued twice: " + e);
        e.queued = true;
        int seq = (int) (nextSeq++ & SEQ_MASK);
        e.time = time;
        e.seq = seq;
        if (time >= cursor && time - cursor <= mask) {
            calendarAdd(e, time, seq);
        } else {
            heapPush(e, (time << SEQ_BITS) | seq);
        }
    }

    /** Removes and returns the event of the smallest key; the queue must not be empty. */
    Event pop() {
        Event e;
        if (calendarSize > 0 && (heapSize == 0
                || ((calendarMin << SEQ_BITS) | first[(int) (calendarMin & mask)].seq) < keys[0])) {
            e = calendarPop();
        } else {
            e = heapPop();
        }
        if (e.time > cursor) cursor = e.time;
        e.queued = false;
        return e;
    }

    private void calendarAdd(Event e, long time, int seq) {
        int b = (int) (time & mask);
        Event tail = last[b];
        e.next = null;
        if (tail == null) {
            first[b] = e;
            last[b] = e;
            occupied[b >>> 6] |= 1L << b;
            if (time < calendarMin) calendarMin = time;
        } else if (tail.seq <= seq) {
            tail.next = e;
            last[b] = e;
        } else {
            // the counter wrapped since the bucket's last push: keep the bucket in key order
            Event prev = null, c = first[b];
            while (c.seq <= seq) {
                prev = c;
                c = c.next;
            }
            e.next = c;
            if (prev == null) first[b] = e; else prev.next = e;
        }
        calendarSize++;
    }

    private Event calendarPop() {
        int b = (int) (calendarMin & mask);
        Event e = first[b];
        Event next = e.next;
        e.next = null;
        calendarSize--;
        if (next != null) {
            first[b] = next;
            return e;
        }
        first[b] = null;
        last[b] = null;
        occupied[b >>> 6] &= ~(1L << b);
        calendarMin = calendarSize == 0 ? Long.MAX_VALUE : e.time + ((nextOccupied(b) - b) & mask);
        return e;
    }

    /** The first non-empty bucket after {@code b}, going round the calendar (one must exist). */
    private int nextOccupied(int b) {
        int start = (b + 1) & mask;
        int words = occupied.length;
        int w = start >>> 6;
        long bits = occupied[w] & (-1L << start);
        for (int i = 0; i <= words; i++) {
            if (bits != 0) return (w << 6) | Long.numberOfTrailingZeros(bits);
            w = (w + 1) & (words - 1);
            bits = occupied[w];
        }
        throw new IllegalStateException("calendar bitmap lost an event");
    }

    private void heapPush(Event e, long key) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heapSize * 2);
            keys = Arrays.copyOf(keys, heapSize * 2);
        }
        int i = heapSize++;
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

    private Event heapPop() {
        Event top = heap[0];
        int last = --heapSize;
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
