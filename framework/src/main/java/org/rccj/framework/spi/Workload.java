package org.rccj.framework.spi;

import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.TxnGenerator;

/** A workload instance for one run (built by its {@link WorkloadFactory}). */
public interface Workload {
    /** Its tables; ids in the store follow this order. */
    List<TableSpec> tables();

    /** Names of its transaction types, in the order {@link TxnGenerator#next()} numbers them. */
    List<String> txnTypes();

    /** Loads the initial rows. Deterministic for a seed. */
    void load(Store store, long seed);

    /** The generator of one coroutine (called once per coroutine, on one thread, before the run). */
    TxnGenerator generator(CoroutineContext ctx);

    /**
     * A generator that only replays picks another coroutine's generator saved ({@link TxnGenerator#loadPick} then
     * {@link TxnGenerator#execute}; never {@code next} or {@code committed}), for protocols that run a transaction's
     * logic away from its coordinator (CALVIN's active participants). Not counted in the invariants' accounting.
     * Workloads that cannot be replayed keep the default (such protocols then refuse the workload).
     */
    default TxnGenerator replayer(CoroutineContext ctx) { return null; }

    /** With {@link #replayer}: an upper bound on the bytes {@link TxnGenerator#savePick} writes. */
    default int maxPickBytes() { return 0; }

    /**
     * An upper bound on the accesses one transaction adds over all its fetch rounds. Protocols that
     * pre-allocate per-transaction buffers in registered memory (CALVIN's forward slots) size them from it.
     */
    default int maxAccessesPerTxn() { return 64; }

    /**
     * Counts the invariants need that live in this process's generators (committed deltas, writes, inserts).
     * A multi-process run (tcp) sends each node's to node 0, which adds them with {@link #addTallies}.
     */
    default long[] tallies() { return new long[0]; }

    /** Adds another process's {@link #tallies} (node 0 of a multi-process run, before {@link #checkInvariants}). */
    default void addTallies(long[] other) {}

    /** After the run, with every transaction finished: each invariant by name, true if it holds. */
    Map<String, Boolean> checkInvariants(Store store);
}
