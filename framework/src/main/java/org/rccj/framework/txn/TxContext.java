package org.rccj.framework.txn;

/**
 * What a transaction uses of the coroutine that runs it ({@code api.CoroutineContext}): its worker's clock
 * and CPU, the cluster's size and the workload's modelled logic costs.
 */
public interface TxContext {
    /** Now on the worker's clock, ns. */
    long now();

    /** Modelled CPU cost of bookkeeping (sim only). */
    void charge(long ns);

    /** Yields for {@code ns} of the worker's clock (a workload's think time). */
    void sleep(long ns);

    /** Nodes in the cluster (a key's partition is its node). */
    int nodes();

    /** The cost profile's CPU time per tuple operation of a fetch, ns. */
    long tupleOpNs();

    /**
     * A fetch of accesses {@code [from, to)} of {@code tx} begins / has ended (either way): the runtime charges the
     * implementation's per-item work around it (profile {@code framework.*}; sim only).
     */
    default void fetchBegin(Tx tx, int from, int to) {}

    default void fetchEnd(Tx tx, int from, int to) {}

    /** {@code fetch_items: one_by_one}: a fetch of several accesses is one stage call per access, in order. */
    default boolean fetchOneByOne() { return false; }

    /** Modelled CPU time of the workload's logic for one transaction of {@code type}, ns. */
    long logicNs(int type);
}
