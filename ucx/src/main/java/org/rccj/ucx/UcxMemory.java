package org.rccj.ucx;

import java.lang.foreign.MemorySegment;

/**
 * Registered memory UCX allocated: the segment (alive while its owner Arena is), its address as peers name it,
 * and its packed remote key for peers to unpack on their endpoints ({@link UcxEndpoint#unpack}).
 */
public record UcxMemory(MemorySegment segment, byte[] rkey) {
    /** The virtual address one-sided ops name (remote address = this + offset). */
    public long address() {
        return segment.address();
    }
}
