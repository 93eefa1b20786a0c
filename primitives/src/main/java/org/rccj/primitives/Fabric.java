package org.rccj.primitives;

import java.util.Optional;

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
    boolean oneThread();

    /** Whether endpoints' clocks are virtual (simulated ns, no waiting costs wall time) rather than the wall clock. */
    boolean virtualTime();

    /**
     * A reading of the fabric clock that every node agrees on, taken before the run (a protocol's clock
     * origin, e.g. DrTM's leases). In-process fabrics: node 0's clock now; tcp: the cluster clock's zero.
     */
    default long origin() { return endpoint(0, 0).now(); }

    /**
     * Whether remote one-sided atomics may touch registered memory in this run (any hybrid code but all-rpc).
     * A fabric whose NIC atomics are not atomic with CPU atomics then sends CPU atomics through the local NIC
     * (sim with such a profile); real atomics on other fabrics need nothing.
     */
    void oneSidedAtomics(boolean used);

    /**
     * {@code local_access: network} (true): an op or RPC a worker posts to its own node goes through the NIC as
     * one to another node does (one-sided: a queue pair connected to the own node; RPC: a message to the own
     * node, served by its worker at its poll point), as RCC's artifact runs every transaction; false: the local
     * shortcut (a plain memory operation, a direct handler call). Set before {@link #run}; a fabric that has no
     * such path throws {@link UnsupportedOperationException} for true.
     */
    void localThroughNic(boolean on);

    /**
     * What only some fabrics can do, by interface ({@link Simulation}, {@link SmartNic}, {@link PathTrace}): the
     * fabric's implementation, or empty when it has none (every fabric but {@code sim} has none of these).
     */
    default <T> Optional<T> capability(Class<T> type) { return Optional.empty(); }

    @Override default void close() {}
}
