package org.rccj.primitives;

/**
 * Critical paths of ops ({@link CriticalPath}), reached through {@link Fabric#capability} on a fabric that traces them
 * ({@code sim} unless {@code sim.critical_path: false}). The fabric moves an op's mark as the op's time moves; the
 * framework starts a trip at a wait's first post and ends it when the waiting coroutine runs again. It observes: no
 * figure but the paths depends on it. Ops are the fabric's own ({@link Endpoint#newOp}).
 */
public interface PathTrace {
    /** Starts {@code op}'s path at {@code t} (no term yet). */
    void start(Op op, long t);

    /** The stretch of {@code op}'s path from its last mark to {@code t} belongs to {@code term} (added to what it has). */
    void mark(Op op, CriticalPath term, long t);

    /** The terms this trip of {@code op} has set: bit {@code ordinal} per term. */
    int terms(Op op);

    /** Term {@code ordinal} of {@code op}'s current trip, ns (meaningful when its bit is in {@link #terms}). */
    int ns(Op op, int ordinal);
}
