package org.rccj.fabrics;

import java.lang.invoke.VarHandle;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/** Executes a one-sided op against a node's registered memory: what the target NIC does, on every fabric. */
public final class MemoryOps {
    private MemoryOps() {}

    public static void execute(RegisteredMemory m, Op op) {
        switch (op.verb) {
            case READ -> {
                m.read(op.region, op.offset, op.data, 0, op.length);
                VarHandle.acquireFence();
            }
            case WRITE -> {
                VarHandle.releaseFence();
                m.write(op.region, op.offset, op.data, 0, op.length);
            }
            case CAS -> op.result = m.casDirect(op.region, op.offset, op.compare, op.value);
            case FAA -> op.result = m.faaDirect(op.region, op.offset, op.value);
            default -> throw new IllegalArgumentException("not a one-sided verb: " + op.verb);
        }
    }

    /**
     * The same op done by a core on its own node's memory (a local shortcut): CAS and FAA are then CPU atomics, through
     * the memory's route for them ({@link RegisteredMemory#cpuAtomics}: a fabric's loopback) when it has one.
     */
    public static void executeOnCpu(RegisteredMemory m, Op op) {
        switch (op.verb) {
            case CAS -> op.result = m.cas(op.region, op.offset, op.compare, op.value);
            case FAA -> op.result = m.faa(op.region, op.offset, op.value);
            default -> execute(m, op);
        }
    }
}
