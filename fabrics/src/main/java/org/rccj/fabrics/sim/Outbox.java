package org.rccj.fabrics.sim;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * What one node sent, in one window, to the nodes one thread runs: events with their destination node, in the order
 * sent, and the ops whose landing or handling the requester is told of (decision 0146 point 4).
 */
final class Outbox {
    private SimOp[] events = new SimOp[16];
    private int[] to = new int[16];
    private int n;
    final ArrayList<SimOp> landed = new ArrayList<>(), handled = new ArrayList<>();

    void add(SimOp e, int node) {
        if (n == events.length) {
            events = Arrays.copyOf(events, n * 2);
            to = Arrays.copyOf(to, n * 2);
        }
        events[n] = e;
        to[n++] = node;
    }

    /** Pushes every event into its node's queue in the order sent, tells the requesters, and empties the box. */
    void drainInto(LogicalProcess[] lps) {
        for (int i = 0; i < n; i++) {
            SimOp e = events[i];
            events[i] = null;
            lps[to[i]].queue.push(e, e.time);
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
