package org.rccj.fabrics.sim;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * What one node sent, in one window, to one other node: events in the order sent, and the ops of that node whose
 * landing or handling it is told of (decision 0146 point 4).
 */
final class Outbox {
    private SimOp[] events = new SimOp[8];
    private int n;
    final ArrayList<SimOp> landed = new ArrayList<>(), handled = new ArrayList<>();

    void add(SimOp e) {
        if (n == events.length) events = Arrays.copyOf(events, n * 2);
        events[n++] = e;
    }

    /** Pushes every event into the receiver's queue in the order sent, tells the requesters, and empties the box. */
    void drainInto(LogicalProcess to) {
        for (int i = 0; i < n; i++) {
            SimOp e = events[i];
            events[i] = null;
            to.queue.push(e, e.time);
        }
        n = 0;
        if (!landed.isEmpty()) {
            for (SimOp op : landed) op.landedOnOneThread();
            landed.clear();
        }
        if (!handled.isEmpty()) {
            for (SimOp op : handled) op.handled = true;
            handled.clear();
        }
    }
}
