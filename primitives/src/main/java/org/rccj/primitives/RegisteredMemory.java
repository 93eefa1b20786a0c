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

    private final int node;
    private CpuAtomics cpuAtomics;
    private final List<ByteBuffer> regions = new ArrayList<>();
    private final List<String> names = new ArrayList<>();

    public RegisteredMemory(int node) { this.node = node; }

    public int node() { return node; }

    /** Registers a zeroed region of {@code bytes} bytes and returns its id. */
    public synchronized int register(String name, long bytes) {
        if (bytes > Integer.MAX_VALUE - 64) {
            throw new IllegalArgumentException("region '" + name + "' of " + bytes + " bytes exceeds 2 GiB; use more nodes or a smaller scale");
        }
        ByteBuffer b = ByteBuffer.allocateDirect((int) Math.max(bytes, 8)).order(ByteOrder.nativeOrder());
        regions.add(b);
        names.add(name);
        return regions.size() - 1;
    }

    public int regionCount() { return regions.size(); }
    public String regionName(int region) { return names.get(region); }
    public long regionSize(int region) { return regions.get(region).capacity(); }
    public long totalBytes() { long s = 0; for (ByteBuffer b : regions) s += b.capacity(); return s; }

    private ByteBuffer buf(int region) { return regions.get(region); }

    public long getLong(int region, long off) { return (long) LONG.get(buf(region), (int) off); }
    public long getLongVolatile(int region, long off) { return (long) LONG.getVolatile(buf(region), (int) off); }
    public void putLong(int region, long off, long v) { LONG.set(buf(region), (int) off, v); }
    public void putLongVolatile(int region, long off, long v) { LONG.setVolatile(buf(region), (int) off, v); }
    public void putLongRelease(int region, long off, long v) { LONG.setRelease(buf(region), (int) off, v); }

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
        return (long) LONG.compareAndExchange(buf(region), (int) off, expect, update);
    }

    /** Fetch-and-add on the memory itself. */
    public long faaDirect(int region, long off, long delta) {
        return (long) LONG.getAndAdd(buf(region), (int) off, delta);
    }

    /**
     * Copies bytes out of registered memory. Not atomic beyond single aligned words, but the aligned words
     * are read in ascending address order (acquire loads), so a protocol may rely on "a later word of one
     * READ was read after an earlier one" (MVCC's and SUNDIAL's double-read checks) on every fabric.
     */
    public void read(int region, long off, byte[] dst, int dstOff, int len) {
        ByteBuffer b = buf(region);
        int o = (int) off;
        int i = 0;
        if ((o & 7) == 0) {
            for (; i + 8 <= len; i += 8) Bytes.putLong(dst, dstOff + i, (long) LONG.getAcquire(b, o + i));
        }
        if (i < len) b.get(o + i, dst, dstOff + i, len - i);
    }

    /** Copies bytes into registered memory. Not atomic beyond single aligned words. */
    public void write(int region, long off, byte[] src, int srcOff, int len) {
        buf(region).put((int) off, src, srcOff, len);
    }
}
