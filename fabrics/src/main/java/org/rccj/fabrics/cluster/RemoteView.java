package org.rccj.fabrics.cluster;

import java.util.function.LongSupplier;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Counters;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Op;

/** A worker of a node another process hosts, as a multi-process fabric shows it: only its clock (the cluster's) is usable. */
public final class RemoteView implements Endpoint {
    private final int node, worker, self;
    private final LongSupplier clock;
    private final CostProfile cost;
    private final Counters counters = new Counters();

    public RemoteView(int node, int worker, int self, LongSupplier clock, CostProfile cost) {
        this.node = node;
        this.worker = worker;
        this.self = self;
        this.clock = clock;
        this.cost = cost;
    }

    @Override public int node() { return node; }
    @Override public int worker() { return worker; }
    @Override public long now() { return clock.getAsLong(); }
    @Override public Counters counters() { return counters; }
    @Override public long busyNanos() { return -1; }
    @Override public CostProfile profile() { return cost; }
    @Override public void charge(long ns) {}
    @Override public void compute(long ns) { throw remote(); }
    @Override public void post(Op[] ops, int n) { throw remote(); }
    @Override public void post(Op op) { throw remote(); }
    @Override public void reply(Op call) { throw remote(); }
    @Override public void timer(Op op, long time) { throw remote(); }

    private IllegalStateException remote() {
        return new IllegalStateException("node " + node + " runs in another process; this is node " + self);
    }
}
