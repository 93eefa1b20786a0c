package org.rccj.framework.api;

import org.rccj.framework.store.Store;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.RegisteredMemory;

/**
 * The run's cluster as a protocol sees it: its shape and store, membership and placement (nodes, threads,
 * each node's registered memory), the RPC handler registry, the shared coordinator log, the fabric's clock
 * facts, and what the workload promises about its transactions. The runtime implements it.
 */
public abstract class ClusterView {
    /** The run's shape: nodes, threads, coroutines per worker, replication, warm-up, seed. */
    public final ClusterShape shape;
    public final Store store;

    protected ClusterView(ClusterShape shape, Store store) {
        this.shape = shape;
        this.store = store;
    }

    public abstract int nodes();

    /** Workers per node. */
    public abstract int threads();

    /** Node {@code node}'s registered memory (registering regions is allowed at setup, before the run). */
    public abstract RegisteredMemory memory(int node);

    /** Registers an RPC handler (at setup, before the run) and returns its id. */
    public abstract int register(String name, RpcHandler h);

    /** The coordinator log (the LOG stage). */
    public abstract CommitLog log();

    /** The fabric's name ({@code sim}, {@code local}, ...). */
    public abstract String fabricName();

    /** Whether the fabric's clocks are virtual (the simulator). */
    public abstract boolean virtualTime();

    /** The fabric's time origin, ns on its clocks (the same on every node). */
    public abstract long origin();

    /**
     * What only some fabrics can do ({@link org.rccj.primitives.Fabric#capability}: e.g. {@link org.rccj.primitives.SmartNic},
     * simulated NIC hardware), or empty.
     */
    public abstract <T> java.util.Optional<T> capability(Class<T> type);

    /** The workload's bound on the accesses one transaction adds over all its fetch rounds. */
    public abstract int maxAccessesPerTxn();

    /** The workload's bound on the bytes a saved pick takes ({@link TxnGenerator#savePick}). */
    public abstract int maxPickBytes();

    /** A generator that replays picks other coroutines saved (null when the workload cannot be replayed). */
    public abstract TxnGenerator replayer(CoroutineContext ctx);
}
