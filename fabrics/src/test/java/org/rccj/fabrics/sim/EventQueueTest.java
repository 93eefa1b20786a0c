package org.rccj.fabrics.sim;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The simulator's event queue pops in (time, insertion) order, whether an event sits in the calendar
 * window or in the heap beyond it, and exactly as one heap over the keys {@code (time, insertion number)} would;
 * the insertion number is 64 bits and never wraps (decision 0146).
 */
class EventQueueTest {
    /** An event: a sim op with its id in {@code tag}. */
    private static SimOp ev(int id) {
        SimOp e = new SimOp(false);
        e.tag = id;
        return e;
    }

    /** The reference: one priority queue over the same keys. */
    private static final class Reference {
        record Entry(long time, long seq, SimOp e) {}
        final PriorityQueue<Entry> q = new PriorityQueue<>((a, b) -> a.time != b.time ? Long.compare(a.time, b.time) : Long.compare(a.seq, b.seq));
        long seq;
        void push(SimOp e, long time) { q.add(new Entry(time, seq++, e)); }
        SimOp pop() { return q.poll().e; }
    }

    @Test
    void earlierTimesFirstAndEqualTimesInInsertionOrder() {
        EventQueue q = new EventQueue();
        SimOp a = ev(1), b = ev(2), c = ev(3), d = ev(4);
        q.push(a, 500);
        q.push(b, 100);
        q.push(c, 500);
        q.push(d, 100);
        assertEquals(100, q.peekTime());
        assertEquals(List.of(b, d, a, c), List.of(q.pop(), q.pop(), q.pop(), q.pop()));
        assertTrue(q.isEmpty());
        assertEquals(Long.MAX_VALUE, q.peekTime());
    }

    @Test
    void eventsBeyondTheWindowAndBeforeItKeepTheOrder() {
        EventQueue q = new EventQueue(6);     // a 64 ns window
        SimOp near = ev(1), far = ev(2), farTie = ev(3), nearTie = ev(4);
        q.push(far, 1000);                    // beyond the window: heap
        q.push(near, 10);                     // calendar
        q.push(farTie, 1000);
        assertSame(near, q.pop());            // the cursor moves to 10
        q.push(nearTie, 1000);                // still beyond the window: heap, after farTie
        SimOp past = ev(5);
        q.push(past, 3);                      // before the cursor: heap, first
        assertEquals(3, q.peekTime());
        assertEquals(List.of(past, far, farTie, nearTie), List.of(q.pop(), q.pop(), q.pop(), q.pop()));
    }

    @Test
    void anEventCannotBeQueuedTwice() {
        EventQueue q = new EventQueue();
        SimOp a = ev(1);
        q.push(a, 5);
        assertThrows(IllegalStateException.class, () -> q.push(a, 6));
        assertSame(a, q.pop());
        q.push(a, 7);                         // popped: may be queued again
        assertEquals(7, q.peekTime());
        assertThrows(IllegalArgumentException.class, () -> q.push(ev(2), EventQueue.MAX_TIME + 1));
    }

    @Test
    void matchesOneHeapOverTheKeysInASimulatorLikeRun() {
        for (int windowBits : new int[] {6, 8, EventQueue.DEFAULT_WINDOW_BITS}) {
            SplittableRandom rnd = new SplittableRandom(42 + windowBits);
            EventQueue q = new EventQueue(windowBits);
            Reference ref = new Reference();
            List<SimOp> free = new ArrayList<>();
            for (int i = 0; i < 500; i++) free.add(ev(i));
            long now = 0;
            for (int step = 0; step < 200_000; step++) {
                if (!free.isEmpty() && (q.isEmpty() || rnd.nextInt(2) == 0)) {
                    SimOp e = free.remove(free.size() - 1);
                    // mostly near (many ties), sometimes far beyond the window (timers)
                    long t = now + (rnd.nextInt(20) == 0 ? rnd.nextLong(100_000) : rnd.nextLong(8) * rnd.nextLong(200));
                    q.push(e, t);
                    ref.push(e, t);
                } else {
                    long peek = q.peekTime();
                    SimOp got = (SimOp) q.pop(), want = ref.pop();
                    assertSame(want, got, "step " + step);
                    assertEquals(peek, got.time);
                    assertTrue(got.time >= now);
                    now = got.time;
                    free.add(got);
                }
                assertEquals(ref.q.size(), q.size());
            }
        }
    }

    @Test
    void tiesPopInInsertionOrderAfterMillionsOfPushes() {
        // more than 2^20 pushes (where a 20-bit counter used to wrap): ties still pop in insertion order
        EventQueue q = new EventQueue();
        Reference ref = new Reference();
        SimOp[] es = new SimOp[64];
        for (int i = 0; i < es.length; i++) es[i] = ev(i);
        long pushes = 0;
        int queued = 0;
        long now = 0;
        int next = 0;
        while (pushes < (1L << 20) + 1000) {
            if (queued < es.length) {
                SimOp e = es[next];
                next = (next + 1) % es.length;
                long t = now + (pushes % 3);          // many events of the same nanosecond
                q.push(e, t);
                ref.push(e, t);
                pushes++;
                queued++;
            } else {
                SimOp got = (SimOp) q.pop();
                assertSame(ref.pop(), got);
                now = got.time;
                next = got.tag;
                queued--;
            }
        }
        while (queued-- > 0) assertSame(ref.pop(), q.pop());
    }
}
