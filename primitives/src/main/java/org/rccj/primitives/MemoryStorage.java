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
    /** Plain direct buffers of the JVM. */
    MemoryStorage DIRECT = (node, region, chunk, bytes) -> ByteBuffer.allocateDirect(bytes).order(ByteOrder.nativeOrder());

    /** A zeroed buffer of exactly {@code bytes} bytes for chunk {@code chunk} of region {@code region} of node {@code node}. */
    ByteBuffer allocate(int node, int region, int chunk, int bytes);
}
