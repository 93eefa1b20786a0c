package org.rccj.framework.spi;

import java.util.List;
import java.util.Map;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.TableSpec;

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
     * An upper bound on the accesses one transaction adds over all its fetch rounds. Protocols that
     * pre-allocate per-transaction buffers in registered memory (CALVIN's forward slots) size them from it.
     */
    default int maxAccessesPerTxn() { return 64; }

    /** After the run, with every transaction finished: each invariant by name, true if it holds. */
    Map<String, Boolean> checkInvariants(Store store);
}
