package org.rccj.primitives;

/**
 * The registered (RDMA-accessible) memory of one node: regions addressed by (region, offset). Every node
 * registers the same regions in the same order, so a region id means the same thing cluster-wide. 8-byte
 * words at 8-aligned offsets are accessed atomically. The fabric allocates it ({@link Fabric#memory}): its
 * storage is the fabric's (direct buffers, or memory a NIC library allocated and registered, {@link
 * MemoryStorage}); the stages only ever use these reads, writes and atomics.
 */
public interface RegisteredMemory {
    /**
     * Atomics executed by a CPU of this node (RPC handlers, coordinators' own words) may go through the
     * fabric: the sim fabric routes them through the local NIC (loopback) when NIC atomics are not atomic
     * with CPU atomics. Null: plain CPU atomics.
     */
    interface CpuAtomics {
        long cas(RegisteredMemory m, int region, long off, long expect, long update);
        long faa(RegisteredMemory m, int region, long off, long delta);
    }

    /** Node {@code node}'s memory in plain direct buffers (the in-process fabrics', tests'). */
    static RegisteredMemory direct(int node) { return new ChunkedMemory(node, MemoryStorage.DIRECT, false); }

    /**
     * Memory of a node another process hosts (tcp): regions are registered with their sizes (so region ids and
     * layouts agree on every process) but a chunk is allocated only when something touches it (node 0 installing
     * the node's final memory for verification); until then it costs nothing.
     */
    static RegisteredMemory shadow(int node) { return new ChunkedMemory(node, MemoryStorage.DIRECT, true); }

    int node();

    /** Registers a zeroed region of {@code bytes} bytes (any size the storage allows) and returns its id. */
    int register(String name, long bytes);

    /**
     * Registers a zeroed region most of whose pages a run may never touch (the coordinator log's rings, one per
     * coordinator worker of the cluster on every node): the storage may leave the untouched pages unallocated
     * ({@link MemoryStorage#allocateSparse}). The same region as {@link #register} in every other respect.
     */
    default int registerSparse(String name, long bytes) { return register(name, bytes); }

    int regionCount();
    String regionName(int region);
    long regionSize(int region);
    long totalBytes();

    /** Bytes actually allocated (a shadow's untouched chunks are not). */
    long allocatedBytes();

    long getLong(int region, long off);
    long getLongVolatile(int region, long off);
    void putLong(int region, long off, long v);
    void putLongVolatile(int region, long off, long v);
    void putLongRelease(int region, long off, long v);

    /** Installs the fabric's route for CPU atomics (see {@link CpuAtomics}); null for plain CPU atomics. */
    void cpuAtomics(CpuAtomics route);

    /**
     * Atomic compare-and-swap by a CPU of this node; returns the value found (equal to {@code expect} on
     * success), like RDMA CAS. On hardware whose NIC atomics are not coherent with CPU atomics the fabric
     * sends it through the local NIC.
     */
    long cas(int region, long off, long expect, long update);

    /** Atomic fetch-and-add by a CPU of this node; returns the previous value (see {@link #cas}). */
    long faa(int region, long off, long delta);

    /** Compare-and-swap on the memory itself (what the NIC's atomic unit or a plain CPU CAS does). */
    long casDirect(int region, long off, long expect, long update);

    /** Fetch-and-add on the memory itself. */
    long faaDirect(int region, long off, long delta);

    /**
     * Copies bytes out of registered memory. Not atomic beyond single aligned words, but the aligned words
     * are read in ascending address order (acquire loads), so a protocol may rely on "a later word of one
     * READ was read after an earlier one" (MVCC's and SUNDIAL's double-read checks) on every fabric.
     */
    void read(int region, long off, byte[] dst, int dstOff, int len);

    /** Copies bytes into registered memory. Not atomic beyond single aligned words. */
    void write(int region, long off, byte[] src, int srcOff, int len);
}
