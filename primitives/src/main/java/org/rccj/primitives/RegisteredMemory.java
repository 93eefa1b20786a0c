package org.rccj.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The registered (RDMA-accessible) memory of one node: off-heap regions addressed by (region, offset).
 * Every node registers the same regions in the same order, so a region id means the same thing
 * cluster-wide. 8-byte words at 8-aligned offsets are accessed atomically through a VarHandle view.
 */
public final class RegisteredMemory {
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /**
     * Atomics executed by a CPU of this node (RPC handlers, coordinators' own words) may go through the
     * fabric: the sim fabric routes them through the local NIC (loopback) when NIC atomics are not atomic
     * with CPU atomics. Null: plain CPU atomics.
     */
    public interface CpuAtomics {
        long cas(RegisteredMemory m, int region, long off, long expect, long update);
        long faa(RegisteredMemory m, int region, long off, long delta);
    }

    /** Regions are split into chunks of 2^30 bytes, so a region may exceed a ByteBuffer's 2 GiB. */
    static final int CHUNK_SHIFT = 30;
    private final int chunkShift;
    private final long chunkMask;

    private final int node;
    private CpuAtomics cpuAtomics;
    /** The chunks of each region, by region id (an array: every memory access starts here). */
    private ByteBuffer[][] regions = new ByteBuffer[0][];
    private final List<Long> sizes = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    public RegisteredMemory(int node) { this(node, CHUNK_SHIFT, false, MemoryStorage.DIRECT); }

    /** With chunks from {@code storage} (a fabric whose NIC library allocates and registers the memory itself). */
    public RegisteredMemory(int node, MemoryStorage storage) { this(node, CHUNK_SHIFT, false, storage); }

    /** Chunks of 2^this bytes: a region's chunk {@code c} holds offsets {@code [c << CHUNK_BITS, (c+1) << CHUNK_BITS)}. */
    public static final int CHUNK_BITS = CHUNK_SHIFT;

    /**
     * Memory of a node another process hosts (tcp): regions are registered with their sizes (so region ids and
     * layouts agree on every process) but a chunk is allocated only when something touches it (node 0 installing
     * the node's final memory for verification); until then it costs nothing.
     */
    public static RegisteredMemory shadow(int node) { return new RegisteredMemory(node, CHUNK_SHIFT, true, MemoryStorage.DIRECT); }

    private final boolean lazy;
    private final MemoryStorage storage;

    /** With chunks of 2^chunkShift bytes (tests use small chunks to cross their boundaries); chunkShift >= 3. */
    RegisteredMemory(int node, int chunkShift) { this(node, chunkShift, false, MemoryStorage.DIRECT); }

    private RegisteredMemory(int node, int chunkShift, boolean lazy, MemoryStorage storage) {
        this.storage = storage;
        if (chunkShift < 3 || chunkShift > CHUNK_SHIFT) throw new IllegalArgumentException("chunkShift " + chunkShift);
        this.node = node;
        this.lazy = lazy;
        this.chunkShift = chunkShift;
        this.chunkMask = (1L << chunkShift) - 1;
    }

    public int node() { return node; }

    /** Registers a zeroed region of {@code bytes} bytes (any size the JVM's direct memory allows) and returns its id. */
    public synchronized int register(String name, long bytes) {
        long size = Math.max(bytes, 8);
        long chunks64 = (size + chunkMask) >>> chunkShift;
        if (chunks64 > Integer.MAX_VALUE) throw new IllegalArgumentException("region '" + name + "' of " + bytes + " bytes is too large");
        int n = (int) chunks64;
        ByteBuffer[] chunks = new ByteBuffer[n];
        if (!lazy) for (int i = 0; i < n; i++) chunks[i] = allocate(regions.length, size, i);
        regions = java.util.Arrays.copyOf(regions, regions.length + 1);
        regions[regions.length - 1] = chunks;
        sizes.add(size);
        names.add(name);
        return regions.length - 1;
    }

    public int regionCount() { return regions.length; }
    public String regionName(int region) { return names.get(region); }
    public long regionSize(int region) { return sizes.get(region); }
    public long totalBytes() { long s = 0; for (long b : sizes) s += b; return s; }

    private ByteBuffer allocate(int region, long regionSize, int chunk) {
        long len = Math.min(chunkMask + 1, regionSize - ((long) chunk << chunkShift));
        return storage.allocate(node, region, chunk, (int) len).order(ByteOrder.nativeOrder());
    }

    /** The chunk holding offset {@code off} of a region (an 8-aligned word never straddles two chunks). */
    private ByteBuffer buf(int region, long off) {
        ByteBuffer b = regions[region][(int) (off >>> chunkShift)];
        return b != null ? b : touch(region, (int) (off >>> chunkShift));
    }

    /** A shadow's chunk on first use (zeroed, as registered memory starts). */
    private synchronized ByteBuffer touch(int region, int chunk) {
        ByteBuffer[] chunks = regions[region];
        if (chunks[chunk] == null) chunks[chunk] = allocate(region, sizes.get(region), chunk);
        return chunks[chunk];
    }

    /** Bytes actually allocated (a shadow's untouched chunks are not). */
    public synchronized long allocatedBytes() {
        long s = 0;
        for (ByteBuffer[] chunks : regions) for (ByteBuffer b : chunks) if (b != null) s += b.capacity();
        return s;
    }

    private int at(long off) { return (int) (off & chunkMask); }

    public long getLong(int region, long off) { return (long) LONG.get(buf(region, off), at(off)); }
    public long getLongVolatile(int region, long off) { return (long) LONG.getVolatile(buf(region, off), at(off)); }
    public void putLong(int region, long off, long v) { LONG.set(buf(region, off), at(off), v); }
    public void putLongVolatile(int region, long off, long v) { LONG.setVolatile(buf(region, off), at(off), v); }
    public void putLongRelease(int region, long off, long v) { LONG.setRelease(buf(region, off), at(off), v); }

    /** Installs the fabric's route for CPU atomics (see {@link CpuAtomics}); null for plain CPU atomics. */
    public void cpuAtomics(CpuAtomics route) { this.cpuAtomics = route; }

    /**
     * Atomic compare-and-swap by a CPU of this node; returns the value found (equal to {@code expect} on
     * success), like RDMA CAS. On hardware whose NIC atomics are not coherent with CPU atomics the fabric
     * sends it through the local NIC.
     */
    public long cas(int region, long off, long expect, long update) {
        CpuAtomics r = cpuAtomics;
        return r == null ? casDirect(region, off, expect, update) : r.cas(this, region, off, expect, update);
    }

    /** Atomic fetch-and-add by a CPU of this node; returns the previous value (see {@link #cas}). */
    public long faa(int region, long off, long delta) {
        CpuAtomics r = cpuAtomics;
        return r == null ? faaDirect(region, off, delta) : r.faa(this, region, off, delta);
    }

    /** Compare-and-swap on the memory itself (what the NIC's atomic unit or a plain CPU CAS does). */
    public long casDirect(int region, long off, long expect, long update) {
        return (long) LONG.compareAndExchange(buf(region, off), at(off), expect, update);
    }

    /** Fetch-and-add on the memory itself. */
    public long faaDirect(int region, long off, long delta) {
        return (long) LONG.getAndAdd(buf(region, off), at(off), delta);
    }

    /**
     * Copies bytes out of registered memory. Not atomic beyond single aligned words, but the aligned words
     * are read in ascending address order (acquire loads), so a protocol may rely on "a later word of one
     * READ was read after an earlier one" (MVCC's and SUNDIAL's double-read checks) on every fabric.
     */
    public void read(int region, long off, byte[] dst, int dstOff, int len) {
        while (len > 0) {
            ByteBuffer b = buf(region, off);
            int o = at(off);
            int n = (int) Math.min(len, b.capacity() - o);
            int i = 0;
            if ((o & 7) == 0) {
                for (; i + 8 <= n; i += 8) Bytes.putLong(dst, dstOff + i, (long) LONG.getAcquire(b, o + i));
            }
            if (i < n) b.get(o + i, dst, dstOff + i, n - i);
            off += n;
            dstOff += n;
            len -= n;
        }
    }

    /** Copies bytes into registered memory. Not atomic beyond single aligned words. */
    public void write(int region, long off, byte[] src, int srcOff, int len) {
        while (len > 0) {
            ByteBuffer b = buf(region, off);
            int o = at(off);
            int n = (int) Math.min(len, b.capacity() - o);
            b.put(o, src, srcOff, n);
            off += n;
            srcOff += n;
            len -= n;
        }
    }
}
