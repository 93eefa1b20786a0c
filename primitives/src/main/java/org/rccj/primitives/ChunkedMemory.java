package org.rccj.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link RegisteredMemory} over chunks of at most 2^30 bytes that a {@link MemoryStorage} hands out (the fabric's:
 * plain direct buffers, or memory a NIC library allocated and registered itself). 8-byte words at 8-aligned
 * offsets are accessed atomically through a VarHandle view of the chunk.
 */
public final class ChunkedMemory implements RegisteredMemory {
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.nativeOrder());

    /** Regions are split into chunks of 2^30 bytes, so a region may exceed a ByteBuffer's 2 GiB. */
    public static final int CHUNK_SHIFT = 30;
    private final int chunkShift;
    private final long chunkMask;

    private final int node;
    private final MemoryStorage storage;
    private CpuAtomics cpuAtomics;
    /** The chunks of each region, by region id (an array: every memory access starts here). */
    private ByteBuffer[][] regions = new ByteBuffer[0][];
    private final List<Long> sizes = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    /**
     * Node {@code node}'s memory on {@code storage}. {@code lazy}: memory of a node another process hosts (tcp):
     * regions are registered with their sizes (so region ids and layouts agree on every process) but a chunk is
     * allocated only when something touches it (node 0 installing the node's final memory for verification);
     * until then it costs nothing.
     */
    public ChunkedMemory(int node, MemoryStorage storage, boolean lazy) { this(node, storage, CHUNK_SHIFT, lazy); }

    private final boolean lazy;

    /** With chunks of 2^chunkShift bytes (tests use small chunks to cross their boundaries); chunkShift >= 3. */
    ChunkedMemory(int node, MemoryStorage storage, int chunkShift, boolean lazy) {
        if (chunkShift < 3 || chunkShift > CHUNK_SHIFT) throw new IllegalArgumentException("chunkShift " + chunkShift);
        this.node = node;
        this.storage = storage;
        this.lazy = lazy;
        this.chunkShift = chunkShift;
        this.chunkMask = (1L << chunkShift) - 1;
    }

    @Override public int node() { return node; }

    /** Regions registered sparse (their chunks come from {@link MemoryStorage#allocateSparse}). */
    private final java.util.BitSet sparse = new java.util.BitSet();

    @Override
    public synchronized int registerSparse(String name, long bytes) {
        sparse.set(regions.length);
        return register(name, bytes);
    }

    @Override
    public synchronized int register(String name, long bytes) {
        long size = Math.max(bytes, 8);
        long chunks64 = (size + chunkMask) >>> chunkShift;
        if (chunks64 > Integer.MAX_VALUE) throw new IllegalArgumentException("region '" + name + "' of " + bytes + " bytes is too large");
        int n = (int) chunks64;
        ByteBuffer[] chunks = new ByteBuffer[n];
        int region = regions.length;
        if (!lazy) for (int i = 0; i < n; i++) chunks[i] = allocate(region, size, i);
        regions = java.util.Arrays.copyOf(regions, regions.length + 1);
        regions[regions.length - 1] = chunks;
        sizes.add(size);
        names.add(name);
        return regions.length - 1;
    }

    @Override public int regionCount() { return regions.length; }
    @Override public String regionName(int region) { return names.get(region); }
    @Override public long regionSize(int region) { return sizes.get(region); }
    @Override public long totalBytes() { long s = 0; for (long b : sizes) s += b; return s; }

    private ByteBuffer allocate(int region, long regionSize, int chunk) {
        long len = Math.min(chunkMask + 1, regionSize - ((long) chunk << chunkShift));
        ByteBuffer b = sparse.get(region) ? storage.allocateSparse(node, region, chunk, (int) len) : storage.allocate(node, region, chunk, (int) len);
        if (b.capacity() != len) throw new IllegalStateException("storage handed out " + b.capacity() + " bytes for a chunk of " + len);
        return b;
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

    @Override
    public synchronized long allocatedBytes() {
        long s = 0;
        for (ByteBuffer[] chunks : regions) for (ByteBuffer b : chunks) if (b != null) s += b.capacity();
        return s;
    }

    private int at(long off) { return (int) (off & chunkMask); }

    @Override public long getLong(int region, long off) { return (long) LONG.get(buf(region, off), at(off)); }
    @Override public long getLongVolatile(int region, long off) { return (long) LONG.getVolatile(buf(region, off), at(off)); }
    @Override public void putLong(int region, long off, long v) { LONG.set(buf(region, off), at(off), v); }
    @Override public void putLongVolatile(int region, long off, long v) { LONG.setVolatile(buf(region, off), at(off), v); }
    @Override public void putLongRelease(int region, long off, long v) { LONG.setRelease(buf(region, off), at(off), v); }

    @Override public void cpuAtomics(CpuAtomics route) { this.cpuAtomics = route; }

    @Override public long cas(int region, long off, long expect, long update) {
        CpuAtomics r = cpuAtomics;
        return r == null ? casDirect(region, off, expect, update) : r.cas(this, region, off, expect, update);
    }

    @Override public long faa(int region, long off, long delta) {
        CpuAtomics r = cpuAtomics;
        return r == null ? faaDirect(region, off, delta) : r.faa(this, region, off, delta);
    }

    @Override public long casDirect(int region, long off, long expect, long update) {
        return (long) LONG.compareAndExchange(buf(region, off), at(off), expect, update);
    }

    @Override public long faaDirect(int region, long off, long delta) {
        return (long) LONG.getAndAdd(buf(region, off), at(off), delta);
    }

    @Override public void read(int region, long off, byte[] dst, int dstOff, int len) {
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

    @Override public void write(int region, long off, byte[] src, int srcOff, int len) {
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
