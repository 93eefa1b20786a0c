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
}
