package org.rccj.primitives;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where a fabric's registered memory lives: hands out the zeroed chunks of {@link ChunkedMemory}'s regions. The
 * in-process fabrics and tcp use {@link #DIRECT}; a fabric over a NIC library returns buffers over memory that
 * library allocated and registered itself (so the NIC, or a peer process mapping it, sees the same bytes).
 */
@FunctionalInterface
public interface MemoryStorage {
    /**
     * Plain direct buffers of the JVM; a sparse region's chunks are mapped from a file in /dev/shm unlinked at once
     * (zero pages the kernel allocates on first touch, returned when the buffer is collected), where /dev/shm exists.
     */
    MemoryStorage DIRECT = new MemoryStorage() {
        @Override public ByteBuffer allocate(int node, int region, int chunk, int bytes) {
            return ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());
        }

        @Override public ByteBuffer allocateSparse(int node, int region, int chunk, int bytes) {
            ByteBuffer b = SparseMemory.map(bytes);
            return b != null ? b : allocate(node, region, chunk, bytes);
        }
    };

    /**
     * The bytes {@link #DIRECT} can still map for sparse regions (the free space of /dev/shm, a tmpfs: a sparse file
     * there may be larger, and a page touched beyond it faults), or -1 where it maps them as plain direct memory.
     */
    static long sparseSpace() { return SparseMemory.space(); }

    /** A zeroed buffer of exactly {@code bytes} bytes for chunk {@code chunk} of region {@code region} of node {@code node}. */
    ByteBuffer allocate(int node, int region, int chunk, int bytes);

    /** The same for a sparse region ({@link RegisteredMemory#registerSparse}): untouched pages may stay unallocated. */
    default ByteBuffer allocateSparse(int node, int region, int chunk, int bytes) { return allocate(node, region, chunk, bytes); }
}
