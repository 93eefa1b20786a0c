package org.rccj.primitives;

/**
 * Work a (smart) NIC does itself when a one-sided op reaches it, instead of the plain memory operation:
 * simulated NIC hardware such as HADES's remote Bloom filters. Runs at the instant the responder NIC
 * executes the op, on the target's memory, and costs no CPU time of any worker. Only {@code sim} runs it
 * (protocols that need one refuse other fabrics).
 */
@FunctionalInterface
public interface NicAction {
    /** Executes {@code op} at its target NIC at virtual time {@code now}; fills {@code op.data}/{@code op.result} as a reply. */
    void atNic(Op op, RegisteredMemory memory, long now);
}
