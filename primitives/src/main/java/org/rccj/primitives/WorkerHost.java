package org.rccj.primitives;

/**
 * The framework's side of a worker's event loop. A fabric calls these, always on the worker's own
 * thread (local) or in simulated time on the simulator's thread (sim); never concurrently for one worker.
 */
public interface WorkerHost {
    /** An op posted by this worker is done (signaled completion, RPC reply, timer, or unsignaled op executed). */
    void onComplete(Op op);

    /** An RPC request arrived for this worker: run its handler, which replies now or later via {@link Endpoint#reply}. */
    void onRpc(Op call);

    /** Runs one ready coroutine until it yields; false if none was ready. */
    boolean runOne();

    /** True while some coroutine is ready to run. */
    boolean hasReady();

    /** How many coroutines are ready to run now (one pass of an event loop runs these). */
    default int readyCount() { return hasReady() ? 1 : 0; }

    /**
     * CPU time of one pass of the worker's event loop beyond handling what it finds (the artifact's
     * {@code events_handler}: CQ polls, timeout and 2PC scans; profile {@code framework.*}): charged by a
     * simulated worker at every poll. 0: nothing beyond the handling.
     */
    default long passNs() { return 0; }

    /**
     * CPU time at the end of a poll that took {@code udMessages} two-sided messages (requests and replies) off the
     * network: the artifact re-posts its UD receive buffers once more than one was consumed since the last re-post
     * (profile {@code framework.recv_*}). Charged by a simulated worker after the poll's handlers. 0: nothing.
     */
    default long polledNs(int udMessages) { return 0; }

    /** True when this worker's coroutines have all finished (it may still serve RPCs). */
    boolean finished();

    /** How many RPC handlers exist (ids 0..n-1): a fabric refuses a request to any other id as malformed. */
    default int handlers() { return Integer.MAX_VALUE; }
}
