package org.rccj.protocols.drtm;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Bytes;

/**
 * DrTM's tuple header: the lock word ({@link DrtmLockWord}: exclusive owner or read-lease end) and a
 * version word holding the id of the transaction that installed the record (a unique write id, for the
 * history checker and for the emulated HTM's conflict detection). What the stages decide from what they
 * saw is here and in {@link DrtmLockWord}, so the one-sided and RPC halves cannot drift apart.
 */
final class DrtmTuple {
    static final HeaderLayout LAYOUT = HeaderLayout.of("lock", "version");
    static final int LOCK = LAYOUT.offset("lock");
    static final int VERSION = LAYOUT.offset("version");
    /** A write-back writes the version word and the record in one WRITE: they are contiguous. */
    static final int COMMIT_SPAN = VERSION;
    /** Cache line of the emulated HTM's read/write-set tracking. */
    static final int LINE_BYTES = 64;

    static { if (VERSION + 8 != LAYOUT.bytes()) throw new AssertionError("version must precede the record"); }

    // remote (and fallback) stages
    static final AbortException LOCK_CONFLICT = AbortException.conflict("lock_conflict");
    static final AbortException LOCK_LEASED = AbortException.conflict("lock_lease_held");
    static final AbortException READ_LOCKED = AbortException.conflict("read_locked");
    static final AbortException CAS_CONTENDED = AbortException.conflict("cas_contended");
    static final AbortException LEASE_EXPIRED = AbortException.conflict("lease_expired");
    static final AbortException NOT_FOUND = AbortException.conflict("not_found");
    // emulated HTM region (counted as HTM aborts; see DrtmHtm)
    static final AbortException HTM_CONFLICT = AbortException.conflict("htm_conflict");
    static final AbortException HTM_LOCKED = AbortException.conflict("htm_locked");
    static final AbortException HTM_LEASED = AbortException.conflict("htm_lease_held");
    static final AbortException HTM_CAPACITY = AbortException.conflict("htm_capacity");

    private DrtmTuple() {}

    static boolean htmConflict(AbortException e) { return e == HTM_CONFLICT || e == HTM_LOCKED || e == HTM_LEASED; }

    /** LOCK: the exclusive-lock CAS loop ended relying on {@code held}; it wanted {@code desired}. */
    static void acceptLock(Access a, long desired, long held) {
        if (held == desired) {
            a.locked = true;
            return;
        }
        if (DrtmLockWord.isExclusive(held)) throw LOCK_CONFLICT;
        if (DrtmLockWord.isLease(held)) throw LOCK_LEASED;
        throw CAS_CONTENDED;
    }

    /** READ: the lease CAS loop ended relying on {@code held}: a lease, or throws. */
    static void acceptLease(long held) {
        if (DrtmLockWord.isExclusive(held)) throw READ_LOCKED;
        if (held == DrtmLockWord.FREE) throw CAS_CONTENDED;
    }

    /** Takes version and record from a tuple image fetched behind a lock or lease. */
    static void acceptImage(Access a, byte[] image, int off) {
        if (Bytes.getLong(image, off + HeaderLayout.KEY) != a.key) {
            // tuples never move in this store, so a lock word was CASed at a wrong location: a bug, not a conflict
            throw new IllegalStateException(a.table.name + "#" + a.key + ": tuple at offset " + a.offset + " holds key "
                    + Bytes.getLong(image, off + HeaderLayout.KEY));
        }
        a.version = Bytes.getLong(image, off + VERSION);
        a.prevVersion = a.version;
        System.arraycopy(image, off + a.table.recordOffset, a.record, 0, a.table.recordBytes);
        a.fetchedRecord();
    }

    /** Fills the write-back image: new version (the writer's id) then the record. */
    static void commitImage(Access a, long txnId, byte[] dst, int off) {
        Bytes.putLong(dst, off, txnId);
        System.arraycopy(a.update, 0, dst, off + 8, a.table.recordBytes);
    }

    /** Bytes of a write-back image. */
    static int commitBytes(Table t) { return 8 + t.recordBytes; }
}
