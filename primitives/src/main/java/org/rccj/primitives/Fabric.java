package org.rccj.primitives;

/**
 * A cluster of nodes with registered memory and workers that talk through verbs. Protocol and workload
 * code only ever see {@link Endpoint} and {@link RegisteredMemory}; the fabric decides how time passes.
 */
public interface Fabric extends AutoCloseable {
    String name();
    int nodes();
    int threads();
    RegisteredMemory memory(int node);
    Endpoint endpoint(int node, int worker);

    /**
     * Runs every worker's event loop until every host reports {@link WorkerHost#finished()} and no
     * operation is in flight. {@code hosts[node][worker]}.
     */
    void run(WorkerHost[][] hosts);

    /**
     * True when this process runs {@code node}'s workers. In-process fabrics host every node; a multi-process
     * fabric ({@link ProcessGroup}) hosts one, and {@link #run} then gets {@code hosts[node]} only for that one.
     */
    default boolean hosts(int node) { return true; }

    /**
     * Whether {@link #run} runs all of a node's workers on one thread, window by window (sim, also with sim.threads:
     * then the workers of one node may share thread-confined state, and threads meet at a barrier between windows).
     */
    default boolean oneThread() { return false; }

    /** Whether endpoints' clocks are virtual (simulated ns, no waiting costs wall time) rather than the wall clock. */
    default boolean virtualTime() { return false; }

    /**
     * A reading of the fabric clock that every node agrees on, taken before the run (a protocol's clock
     * origin, e.g. DrTM's leases). In-process fabrics: node 0's clock now; tcp: the cluster clock's zero.
     */
    default long origin() { return endpoint(0, 0).now(); }

    /** Events a simulating fabric processed in {@link #run} (0 for fabrics that do not simulate). */
    default long events() { return 0; }

    /** CPU time the fabric spent on threads other than the one that called {@link #run} (sim.threads), ns. */
    default long otherThreadsCpuNanos() { return 0; }

    /** Threads that simulate the cluster (sim's {@code sim.threads}), 0 for a fabric that does not simulate. */
    default int simThreads() { return 0; }

    /** Simulates on one thread whatever {@code sim.threads} says: the run has a feature that cannot run in parallel. */
    default void sequential() {}

    /** Virtual time reached so far, ns, on a fabric with a virtual clock (0 otherwise); approximate when read from another thread. */
    default long virtualNow() { return 0; }

    /**
     * Whether remote one-sided atomics may touch registered memory in this run (any hybrid code but all-rpc).
     * A fabric whose NIC atomics are not atomic with CPU atomics then sends CPU atomics through the local NIC
     * (sim with such a profile); real atomics on other fabrics need nothing.
     */
    default void oneSidedAtomics(boolean used) {}

    /**
     * {@code local_access: network} (true): an op or RPC a worker posts to its own node goes through the NIC as
     * one to another node does (one-sided: a queue pair connected to the own node; RPC: a message to the own
     * node, served by its worker at its poll point), as RCC's artifact runs every transaction; false: the local
     * shortcut (a plain memory operation, a direct handler call). Set before {@link #run}; a fabric that has no
     * such path refuses true.
     */
    default void localThroughNic(boolean on) {
        if (on) throw new UnsupportedOperationException(name() + " has no path through the NIC for local accesses");
    }

    /**
     * A message the NIC of node {@code from} sends on its own at virtual time {@code at} (simulated NIC
     * hardware, e.g. HADES's squash): {@code op} (built as a WRITE of its payload with a {@link NicAction})
     * is costed as an unsignaled one-sided WRITE the NIC generates itself (no core, no doorbell, no WQE fetch:
     * the NIC's per-WQE work, egress bandwidth, the wire, the target NIC's service) and its action runs when
     * the target NIC executes it. Only {@code sim} has such NICs.
     */
    default void nicSend(int from, Op op, long at) {
        throw new UnsupportedOperationException(name() + " has no programmable NIC");
    }

    @Override default void close() {}
}
