package org.rccj.fabrics.sim;

import java.util.Arrays;

/**
 * One logical process's pending events (one node's, decision 0146), popped in (time, insertion) order:
 * deterministic and allocation-free.
 *
 * <p>Order: every push gets the key {@code (time, seq)}, with {@code seq} this queue's own 64-bit insertion
 * counter (it never wraps), and {@link #pop} returns the event of the smallest key: equal times pop in
 * insertion order. Events from other logical processes are pushed here at the window's merge, in a fixed
 * order, so they get their sequence numbers deterministically too. Times must stay below 2^62 ns.
 *
 * <p>Structure: a calendar of one bucket per nanosecond over a window of {@code 2^windowBits} ns from the
 * time of the last pop (almost every event the simulator schedules falls in it: wire, NIC and CPU
 * delays are a few microseconds at most), plus a 4-ary heap of keys for events beyond the window (back-off
 * timers) or before it. A bucket holds the events of one nanosecond as a list in key order, which is
 * insertion order; a bitmap of non-empty buckets finds the next one.
 * Push into the window and pop from it are O(1) apart from that bitmap scan, and touch no heap; the
 * smaller of the window's first key and the heap's first key is popped, so the order is exactly that of
 * one heap over all keys.
 */
final class EventQueue {
    static final long MAX_TIME = (1L << 62) - 1;
    /** 8192 ns: well beyond a round trip plus NIC queueing in every shipped profile. */
    static final int DEFAULT_WINDOW_BITS = 13;

    private long nextSeq;

    // the calendar: bucket b holds the events of the one time t in [cursor, cursor + window) with t & mask == b
    private final int mask;
    private final SimOp[] first, last;
    /** Bit b set when bucket b is not empty. */
    private final long[] occupied;
    /** No calendar event is earlier than this (the time of the last pop, never decreasing). */
    private long cursor;
    /** Time of the earliest calendar event (Long.MAX_VALUE when the calendar is empty). */
    private long calendarMin = Long.MAX_VALUE;
    private int calendarSize;

    // the heap of events outside the window
    private SimOp[] heap = new SimOp[64];
    private long[] times = new long[64], seqs = new long[64];
    private int heapSize;

    EventQueue() { this(DEFAULT_WINDOW_BITS); }

    /** With a calendar window of {@code 2^windowBits} ns (6 to 24). */
    EventQueue(int windowBits) {
        if (windowBits < 6 || windowBits > 24) throw new IllegalArgumentException("windowBits " + windowBits);
        int window = 1 << windowBits;
        mask = window - 1;
        first = new SimOp[window];
        last = new SimOp[window];
        occupied = new long[window >>> 6];
    }

    int size() { return calendarSize + heapSize; }
    boolean isEmpty() { return calendarSize + heapSize == 0; }

    /** Time of the earliest event, or Long.MAX_VALUE when empty. */
    long peekTime() {
        return heapSize == 0 ? calendarMin : Math.min(calendarMin, times[0]);
    }

    /** Queues {@code e} to fire at {@code time}; an event may be queued at most once at a time. */
    void push(SimOp e, long time) {
        if (time > MAX_TIME || time < 0) throw new IllegalArgumentException("event time out of range: " + time);
        if (e.queued) throw new IllegalStateException("event queued twice: " + e);
        e.queued = true;
        long seq = nextSeq++;
        e.time = time;
        e.seq = seq;
        if (time >= cursor && time - cursor <= mask) {
            calendarAdd(e, time);
        } else {
            heapPush(e, time, seq);
        }
    }

    /** Removes and returns the event of the smallest key; the queue must not be empty. */
    SimOp pop() {
        SimOp e;
        if (calendarSize > 0 && (heapSize == 0 || calendarMin < times[0]
                || (calendarMin == times[0] && first[(int) (calendarMin & mask)].seq < seqs[0]))) {
            e = calendarPop();
        } else {
            e = heapPop();
        }
        if (e.time > cursor) cursor = e.time;
        e.queued = false;
        return e;
    }

    /** Appends: the counter only grows, so a bucket's list stays in key order. */
    private void calendarAdd(SimOp e, long time) {
        int b = (int) (time & mask);
        SimOp tail = last[b];
        e.next = null;
        if (tail == null) {
            first[b] = e;
            last[b] = e;
            occupied[b >>> 6] |= 1L << b;
            if (time < calendarMin) calendarMin = time;
        } else {
            tail.next = e;
            last[b] = e;
        }
        calendarSize++;
    }

    private SimOp calendarPop() {
        int b = (int) (calendarMin & mask);
        SimOp e = first[b];
        SimOp next = e.next;
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

    private static boolean before(long t1, long s1, long t2, long s2) { return t1 < t2 || (t1 == t2 && s1 < s2); }

    private void heapPush(SimOp e, long time, long seq) {
        if (heapSize == heap.length) {
            heap = Arrays.copyOf(heap, heapSize * 2);
            times = Arrays.copyOf(times, heapSize * 2);
            seqs = Arrays.copyOf(seqs, heapSize * 2);
        }
        int i = heapSize++;
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            if (!before(time, seq, times[parent], seqs[parent])) break;
            heap[i] = heap[parent];
            times[i] = times[parent];
            seqs[i] = seqs[parent];
            i = parent;
        }
        heap[i] = e;
        times[i] = time;
        seqs[i] = seq;
    }

    private SimOp heapPop() {
        SimOp top = heap[0];
        int last = --heapSize;
        SimOp e = heap[last];
        long time = times[last], seq = seqs[last];
        heap[last] = null;
        if (last > 0) {
            int i = 0;
            while (true) {
                int c = 4 * i + 1;
                if (c >= last) break;
                int end = Math.min(c + 4, last);
                int best = c;
                long bt = times[c], bs = seqs[c];
                for (int j = c + 1; j < end; j++) {
                    if (before(times[j], seqs[j], bt, bs)) { bt = times[j]; bs = seqs[j]; best = j; }
                }
                if (!before(bt, bs, time, seq)) break;
                heap[i] = heap[best];
                times[i] = bt;
                seqs[i] = bs;
                i = best;
            }
            heap[i] = e;
            times[i] = time;
            seqs[i] = seq;
        }
        return top;
    }
}
