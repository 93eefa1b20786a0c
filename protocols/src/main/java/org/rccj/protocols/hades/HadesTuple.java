package org.rccj.protocols.hades;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Table;

/**
 * HADES keeps no versions or locks in records. The one header word besides the key, {@code wid}, is the
 * id of the transaction that installed the record: history instrumentation for the checker under HADES,
 * and the record version of the software path under HADES-H (as in SW-Impl's layout). Lines are 64-byte
 * cache lines of a node's memory, named by (region, line index).
 */
final class HadesTuple {
    static final HeaderLayout LAYOUT = HeaderLayout.of("wid");
    static final int WID = LAYOUT.offset("wid");
    static final int LINE_SHIFT = 6;
    static final int LINE_BYTES = 1 << LINE_SHIFT;

    private HadesTuple() {}

    static long line(int region, long byteOffset) { return ((long) region << 40) | (byteOffset >>> LINE_SHIFT); }

    static long firstLine(Table t, long off) { return line(t.region(), off); }
    static long lastLine(Table t, long off) { return line(t.region(), off + t.tupleBytes - 1); }

    /** Lines of a tuple, first..last inclusive. */
    static int lineCount(Table t, long off) { return (int) (lastLine(t, off) - firstLine(t, off) + 1); }

    /** The written range starts inside a line (so the first written line is only partly overwritten). */
    static boolean partialHead(Table t, long off) { return ((off + WID) & (LINE_BYTES - 1)) != 0; }

    /** The written range ends inside a line. */
    static boolean partialTail(Table t, long off) { return ((off + t.tupleBytes) & (LINE_BYTES - 1)) != 0; }

    static int align8(int n) { return (n + 7) & ~7; }
}
