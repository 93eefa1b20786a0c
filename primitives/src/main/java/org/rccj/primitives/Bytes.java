package org.rccj.primitives;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** 8-byte word access on heap buffers (native byte order, same as registered memory). */
public final class Bytes {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.nativeOrder());

    private Bytes() {}

    public static long getLong(byte[] b, int off) { return (long) LONG.get(b, off); }
    public static void putLong(byte[] b, int off, long v) { LONG.set(b, off, v); }
    /** {@code n} rounded up to a multiple of 8 (wire items and memory slots are 8-aligned). */
    public static int align8(int n) { return (n + 7) & ~7; }
    public static int getInt(byte[] b, int off) { return (int) INT.get(b, off); }
    public static void putInt(byte[] b, int off, int v) { INT.set(b, off, v); }

    /** Returns {@code b} if it holds {@code len} bytes, else a larger array (contents not kept). */
    public static byte[] ensure(byte[] b, int len) {
        return b.length >= len ? b : new byte[Math.max(len, b.length * 2)];
    }
}
