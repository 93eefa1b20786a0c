package org.rccj.protocols.calvin;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.primitives.Bytes;

/**
 * CALVIN's tuple header: a deterministic ticket lock and the version word.
 * <ul>
 *   <li>{@code ticket}: the next ticket to hand out. Only the owner node's scheduler touches it, and it hands
 *       tickets out in the global order (epoch, node, position), so every tuple's lock queue follows that order.</li>
 *   <li>{@code serving}: the ticket that holds the lock now. The holder releases by storing its ticket + 1: a
 *       one-sided WRITE, an RPC handler's store or the scheduler's own store all do the same.</li>
 *   <li>{@code version}: id of the transaction that installed the record (0 = loaded), for the history checker.</li>
 * </ul>
 * Decisions the one-sided and RPC halves share live here.
 */
final class CalvinTuple {
    static final HeaderLayout LAYOUT = HeaderLayout.of("ticket", "serving", "version");
    static final int TICKET = LAYOUT.offset("ticket");
    static final int SERVING = LAYOUT.offset("serving");
    static final int VERSION = LAYOUT.offset("version");
    /** An install writes the version word and the record in one WRITE: they are contiguous. */
    static final int INSTALL_SPAN = VERSION;

    static { if (VERSION + 8 != LAYOUT.bytes()) throw new AssertionError("version must precede the record"); }

    private CalvinTuple() {}

    /** The lock is held by the transaction with {@code ticket} once {@code serving} reached it. */
    static boolean granted(long serving, long ticket) { return serving == ticket; }

    /** What the holder of {@code ticket} stores into {@code serving} to pass the lock on. */
    static long released(long ticket) { return ticket + 1; }

    /** Bytes of an install image of a table's record: version word then record. */
    static int installBytes(int recordBytes) { return 8 + recordBytes; }

    /** Fills an install image: the installing transaction's id, then the new record. */
    static void installImage(long txnId, byte[] update, int recordBytes, byte[] dst, int off) {
        Bytes.putLong(dst, off, txnId);
        System.arraycopy(update, 0, dst, off + 8, recordBytes);
    }
}
