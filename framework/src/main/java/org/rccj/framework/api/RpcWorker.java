package org.rccj.framework.api;

import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * A worker as the RPC handlers it runs see it ({@link RpcHandler}): which worker it is, its node's registered
 * memory, its clock and CPU, and the reply. Handlers run on the target node's worker, whose CPU pays for them.
 */
public abstract class RpcWorker {
    /** The node and the worker (thread) index on it. */
    public final int node, index;
    /** The node's registered memory (the same the one-sided ops reach). */
    public final RegisteredMemory memory;

    protected RpcWorker(int node, int index, RegisteredMemory memory) {
        this.node = node;
        this.index = index;
        this.memory = memory;
    }

    /** Sends the reply of an RPC this worker is handling (now, or later for a deferred reply). */
    public abstract void reply(Op call);

    /** Modelled CPU cost of handler work (sim only). */
    public abstract void charge(long ns);

    /** Now on this worker's clock, ns. */
    public abstract long now();

    /** The run's cost profile. */
    public abstract CostProfile profile();

    /** Whether another coroutine of this worker is ready to run. */
    public abstract boolean hasReady();
}
