package org.rccj.primitives;

/**
 * A worker's view of the fabric: its queue pairs, its clock and its CPU. Not thread-safe: one per worker.
 */
public interface Endpoint {
    int node();
    int worker();

    /**
     * Posts a doorbell batch: {@code ops[0..n)} all go to {@code ops[0].node}, are executed in posting
     * order and cost one doorbell. Ops to this worker's own node take the local shortcut (plain memory
     * operations): they are executed before this call returns and complete before it too, except, on sim,
     * CAS/FAA that go through the local NIC (profile with incoherent NIC atomics, loopback): their result is
     * there at once, their completion comes after the loopback latency.
     */
    void post(Op[] ops, int n);

    /**
     * A new op for this endpoint to post (a coroutine's pool fills from here): a fabric that keeps state per op in
     * flight returns its own subclass (sim); others a plain {@link Op}.
     */
    default Op newOp() { return new Op(); }

    /** Posts one op as its own doorbell batch. */
    void post(Op op);

    /**
     * Whether this fabric carries passive RPCs ({@link Op#unsignaled} on an RPC: no reply message, the handler
     * is known to have run from a later completion from the same node). A fabric that cannot (tcp: its wire
     * has no flag for it, the callee would reply anyway) says false and callers send ordinary RPCs.
     */
    default boolean passiveRpc() { return true; }

    /** Handler side: sends the reply of {@code call} (now or, for a deferred reply, later). */
    void reply(Op call);

    /** Asks for {@code op} (verb TIMER) to be completed at {@code time} on this worker's clock. */
    void timer(Op op, long time);

    /** Now on this worker's clock, ns (virtual on sim, {@code System.nanoTime} on real fabrics). */
    long now();

    /** Work that really computes: sim charges it as CPU time, real fabrics spin for that long. */
    void compute(long ns);

    /** CPU cost of framework/protocol bookkeeping in the simulated machine; a no-op on real fabrics. */
    void charge(long ns);

    /** Cumulative ns this worker's CPU has been busy (sim: modelled; local: time outside the idle loop). */
    long busyNanos();

    /** This worker's operation counters. */
    Counters counters();

    /** The cost profile's figures, for code that charges modelled CPU time. */
    CostProfile profile();
}
