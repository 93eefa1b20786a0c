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
     * Asks the fabric to handle every completion and RPC that reached a busy worker before that worker resumes
     * another coroutine, as an event loop that polls its completion queue between resumes does. Protocols whose
     * coroutines poll memory (spin with {@code yieldNow}) call it in {@code attach}: without it, on {@code sim},
     * a worker kept busy by a spinning coroutine would never handle what it is waiting for. Real fabrics
     * already behave like this; the default does nothing.
     */
    default void pollBeforeEveryResume() {}

    @Override default void close() {}
}
