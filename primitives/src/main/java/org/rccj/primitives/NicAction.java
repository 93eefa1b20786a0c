package org.rccj.primitives;

/**
 * Work a (smart) NIC does itself when a one-sided op reaches it: simulated NIC hardware such as HADES's
 * remote Bloom filters. Runs at the instant the responder NIC starts executing the op, on the target's
 * memory, and costs no CPU time of any worker. It either is the whole op (returns false: e.g. a message the
 * NIC consumes) or the hardware's bookkeeping before the verb's own memory operation (returns true: e.g. a
 * READ whose lines the NIC records before it transfers them). The memory operation that follows is the
 * fabric's, with its faults: a multi-word READ under {@code faults.torn_reads} is transferred piece by
 * piece after the action ran, so the action sees the request's arrival, not its end. Only {@code sim} runs
 * it (protocols that need one refuse other fabrics).
 */
@FunctionalInterface
public interface NicAction {
    /**
     * Executes {@code op} at its target NIC at virtual time {@code now}; may fill {@code op.result} (and
     * {@code op.data} when it is the whole op).
     * @return true if the verb's memory operation follows (a READ's transfer into {@code op.data})
     */
    boolean atNic(Op op, RegisteredMemory memory, long now);
}
