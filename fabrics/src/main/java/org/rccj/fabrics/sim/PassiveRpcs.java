package org.rccj.fabrics.sim;

import java.util.ArrayList;

/**
 * A worker's passive RPCs (sent without a reply message) whose completion it has not learned yet, in posting order.
 * The sender learns it from a later completion from the same node: an RPC reply (the same connection) or, so that a
 * hybrid code whose only RPCs are passive ones does not keep them forever, a one-sided completion; only those whose
 * handler has run ({@code SimOp.handled}) are freed then.
 */
final class PassiveRpcs {
    private final ArrayList<SimOp> ops = new ArrayList<>();

    void add(SimOp op) {
        op.handled = false;
        ops.add(op);
    }

    /** A completion from {@code node} arrived: every passive RPC to it whose handler ran is complete. */
    void learn(int node) {
        if (ops.isEmpty()) return;
        int keep = 0;
        for (int i = 0, n = ops.size(); i < n; i++) {
            SimOp p = ops.get(i);
            if (p.node == node && p.handled) {
                p.landedOnOneThread();
            } else {
                ops.set(keep++, p);
            }
        }
        while (ops.size() > keep) ops.remove(ops.size() - 1);
    }
}
