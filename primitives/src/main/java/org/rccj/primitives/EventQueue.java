package org.rccj.primitives;

import java.util.Arrays;

/** Binary min-heap of events ordered by (time, insertion sequence): deterministic, allocation-free. */
final class EventQueue {
    private Event[] heap = new Event[1024];
    private int size;
    private long nextSeq;

    int size() { return size; }
    boolean isEmpty() { return size == 0; }

    void push(Event e, long time) {
        e.time = time;
        e.seq = nextSeq++;
        if (size == heap.length) heap = Arrays.copyOf(heap, size * 2);
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Event p = heap[parent];
            if (!less(e, p)) break;
            heap[i] = p;
            p.heapIndex = i;
            i = parent;
        }
        heap[i] = e;
        e.heapIndex = i;
    }

    Event pop() {
        Event top = heap[0];
        Event last = heap[--size];
        heap[size] = null;
        if (size > 0) siftDown(last);
        top.heapIndex = -1;
        return top;
    }

    private void siftDown(Event e) {
        int i = 0;
        int half = size >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            Event ce = heap[c];
            int r = c + 1;
            if (r < size && less(heap[r], ce)) { c = r; ce = heap[r]; }
            if (!less(ce, e)) break;
            heap[i] = ce;
            ce.heapIndex = i;
            i = c;
        }
        heap[i] = e;
        e.heapIndex = i;
    }

    private static boolean less(Event a, Event b) {
        return a.time < b.time || (a.time == b.time && a.seq < b.seq);
    }
}
