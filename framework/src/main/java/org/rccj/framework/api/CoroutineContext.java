package org.rccj.framework.api;

import java.util.SplittableRandom;
import org.rccj.framework.store.LocationCache;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxContext;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Op;

/**
 * What a transaction coroutine (a protocol's executor, its stages, a service coroutine) uses to talk to the
 * cluster: ops from its own pool, doorbell batches grouped by destination, waiting for completions (it yields),
 * its transaction, the worker's clock and CPU, stage timers and counters; and, for what a protocol sets up or
 * serves, {@link #cluster()} and {@link #worker()}. The runtime implements it (one implementation per run, so
 * calls through it cost what direct calls cost); a test may supply its own.
 *
 * <p>Usage in a stage: {@code Op op = ctx.op().read(...); ctx.add(op); ... ctx.flush(); ctx.await();}
 * then read results from the ops. Ops taken since the last {@link #release()} stay valid until the next.
 */
public abstract class CoroutineContext implements TxContext {
    /** The node that runs this coroutine, and the coroutine's index on its worker ({@link #worker()} has the worker's). */
    public final int node, index;
    /** Unique across the cluster, from 1. */
    public final int globalId;
    public final SplittableRandom rng;
    public final CostProfile cost;
    /** This coroutine's transaction (reused for every attempt). */
    public final Tx tx;

    protected CoroutineContext(int node, int index, int globalId, long seed, CostProfile cost) {
        this.node = node;
        this.index = index;
        this.globalId = globalId;
        this.rng = new SplittableRandom(seed);
        this.cost = cost;
        this.tx = new Tx(this);
    }

    /** The worker that runs this coroutine, as an RPC handler sees it (node, index, memory, reply). */
    public abstract RpcWorker worker();

    /** The run's cluster as a protocol sees it: shape, store, placement, RPC registry, log. */
    public abstract ClusterView cluster();

    /** The location cache of this coroutine's node. */
    public abstract LocationCache cache();

    /**
     * Cached tuple offset of a key, or -1: a miss, or an entry that is not a tuple boundary of the table
     * (torn by a concurrent update). Counts hits and misses for the results.
     */
    public abstract long cachedLocation(Table t, long key);

    /** When the run ends on this worker's clock: no new transaction starts after it. */
    public abstract long endTime();

    /**
     * When the measured interval starts on this worker's clock ({@code Long.MAX_VALUE} while a {@code warmup_ms: auto}
     * warm-up goes on; {@link #endTime} is then {@code Long.MAX_VALUE} too).
     */
    public abstract long measureStart();

    /**
     * When the run started on this worker's clock: the same instant on every worker, fixed before any transaction runs,
     * whatever the warm-up (a protocol's time origin: epochs, timestamps; never {@link #measureStart}, which
     * {@code warmup_ms: auto} decides during the run).
     */
    public abstract long runStart();

    /** The workload logic's own CPU work, {@code ns}: modelled on sim, spun on real fabrics. */
    public abstract void compute(long ns);

    /** Whether the fabric carries passive RPCs (unsignaled, learned complete from a later completion). */
    public abstract boolean passiveRpc();

    /** A free op from this coroutine's pool (not in flight, not taken since the last release). */
    public abstract Op op();

    /** Makes every op taken so far reusable once it is no longer in flight. */
    public abstract void release();

    /** Queues an op for the next {@link #flush()}. */
    public abstract void add(Op op);

    /**
     * Posts the queued ops: one doorbell batch per destination node (in order of first appearance, each
     * batch in queuing order). Does not wait. The runtime may turn an unsignaled one-sided op signaled for its
     * send queue's flow control (every 64th in a row to a node).
     */
    public abstract void flush();

    /** Posts one op right away (its own doorbell). */
    public abstract void post(Op op);

    /** Yields until every signaled op posted so far has completed. */
    public abstract void await();

    /** Flush, then await. */
    public final void flushAndWait() {
        flush();
        await();
    }

    /** Lets the worker's other coroutines and its event loop run, then continues. */
    public abstract void yieldNow();

    /** Start of a stage (use with {@link #stageEnd}). */
    public abstract long stageStart();

    /** Records stage {@code s} as having run from {@code start} until now. */
    public abstract void stageEnd(Stage s, long start);

    /**
     * With {@code stage_timers: artifact}: the open stage {@code s}'s timer stops here as the artifact's does (the time
     * until {@link #stageEnd} is outside the stages); with {@code rccj}, nothing.
     */
    public void stageCut(Stage s) {}

    /** Ends stage {@code s} begun at {@code start}; returns the start of the next stage. */
    public final long stageNext(Stage s, long start) {
        stageEnd(s, start);
        return stageStart();
    }
}
