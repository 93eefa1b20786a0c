package org.rccj.framework.spi;

import java.util.List;
import java.util.Map;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.store.HeaderLayout;

/** A protocol instance for one run (built by its {@link ProtocolFactory}). */
public interface Protocol {
    /** The tuple header this protocol needs (lock word, versions, timestamps...). */
    HeaderLayout header();

    /**
     * The regions {@link #attach} will register on every node for a run of this shape, with their sizes, computed
     * without allocating anything (the memory estimate before a run, decision 0156); none by default.
     */
    default List<org.rccj.framework.store.Store.PlannedRegion> plannedRegions(RegionPlan plan) { return List.of(); }

    /** What a protocol's regions are sized from: the cluster's shape, the workload's tables and its largest transaction. */
    record RegionPlan(org.rccj.framework.api.ClusterShape shape, List<org.rccj.framework.store.TableSpec> tables,
                      int maxAccessesPerTxn, int maxPickBytes) {}

    /** Called once the store exists and before the run: register RPC handlers, set up shared state. */
    void attach(ClusterView cluster);

    /** The engine of one coroutine. */
    TxnExecutor executor(CoroutineContext ctx);

    /**
     * Extra coroutines to run on a worker beside its transaction coroutines (e.g. a CALVIN sequencer or
     * lock manager). Each gets its own context; it must return once {@code ctx.now() >= ctx.endTime()}
     * and its work is drained, or the run never ends. Called once per worker before the run.
     */
    default List<Runnable> services(CoroutineContext workerContext) { return List.of(); }

    /** How many service coroutines {@link #services} wants per worker (their contexts are made first). */
    default int serviceCoroutines() { return 0; }

    /**
     * Why this protocol, as configured, cannot be simulated on several threads ({@code sim.threads}: it shares state
     * between nodes at run time outside the fabric), or null when it can (decision 0146).
     */
    default String sequentialSimReason() { return null; }

    /**
     * Where RCC's artifact checks its global lock manager in every pass of a worker's event loop (core/rworker.h:133-139:
     * WAITDIE with RPC locks, SUNDIAL unless all one-sided), the waiters a worker's RPC lock handler has parked and
     * still waits on, by (node, worker index): each is walked in every pass (profile {@code framework.lock_check_ns},
     * {@code framework.lock_waiter_ns}). Called on the node's own thread. Null (the default): no such check.
     */
    default java.util.function.IntBinaryOperator lockManagerWaiters() { return null; }

    /** Protocol-specific figures for summary.json's "extra" block (after the run). */
    default Map<String, Double> metrics() { return Map.of(); }
}
