package org.rccj.protocols.occ;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Bytes;

/**
 * OCC's tuple header (DrTM+H): a lock word holding the owner's transaction id (0 = free) and a version
 * word holding the id of the transaction that installed the record. The decisions every stage takes on
 * what it saw live here, so the one-sided and RPC halves of a stage cannot drift apart.
 */
final class OccTuple {
    static final HeaderLayout LAYOUT = HeaderLayout.of("lock", "version");
    static final int LOCK = LAYOUT.offset("lock");
    static final int VERSION = LAYOUT.offset("version");
    /** A commit writes the version word and the record in one WRITE: they are contiguous. */
    static final int COMMIT_SPAN = VERSION;

    static final AbortException READ_LOCKED = AbortException.conflict("read_locked");
    static final AbortException LOCK_CONFLICT = AbortException.conflict("lock_conflict");
    static final AbortException LOCK_VERSION = AbortException.conflict("lock_version_changed");
    static final AbortException VALIDATION = AbortException.conflict("validation_failed");
    static final AbortException NOT_FOUND = AbortException.conflict("not_found");

    private OccTuple() {}

    static { if (VERSION + 8 != LAYOUT.bytes()) throw new AssertionError("version must precede the record"); }

    /** READ: a fetched image is usable only if nobody holds its lock; remember its version. */
    static void acceptRead(Access a) {
        if (!a.absent && Bytes.getLong(a.image, LOCK) != 0) throw READ_LOCKED;
        acceptReadIgnoringLock(a);
    }

    /** Takes the version and record of a fetched image without looking at its lock. */
    static void acceptReadIgnoringLock(Access a) {
        if (a.absent) throw NOT_FOUND;
        a.version = Bytes.getLong(a.image, VERSION);
        a.prevVersion = a.version;
        a.table.recordOf(a.image, a.record);
        a.fetchedRecord();
    }

    /** LOCK: the CAS found {@code casFound}; the version word read behind it is {@code version}. */
    static void acceptLock(Access a, long casFound, long version) {
        if (casFound != 0) throw LOCK_CONFLICT;
        a.locked = true;
        if (version != a.version) throw LOCK_VERSION;
    }

    /** VALIDATE: the lock and version words now. */
    static void acceptValidate(Access a, long lock, long version) {
        if (lock != 0 || version != a.version) throw VALIDATION;
    }

    /** Fills the commit image: new version then the record. */
    static void commitImage(Access a, long txnId, byte[] dst, int off) {
        Bytes.putLong(dst, off, txnId);
        System.arraycopy(a.update, 0, dst, off + 8, a.table.recordBytes);
    }
}
