package org.rccj.protocols.sundial;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Bytes;

/**
 * SUNDIAL's tuple: header {@code key, rts, wts, wid}, then the record. The version read is valid over the
 * logical lease {@code [wts, rts]}; {@code wid} is the id of the transaction that installed it (the unique
 * version id the history needs; wts is not unique across tuples).
 *
 * <p>The rts word also carries the lock: bit {@link #LOCKED} (a writer holds the tuple; rts is frozen) and
 * bit {@link #COMMITTING} (the holder is overwriting the record). One word for lock and rts makes "renew
 * only if unlocked" a single CAS, and lets a writer read the rts it must exceed at the instant it locks.
 * A reader may read a locked tuple (Sundial's point: the old version stays readable until commit), but
 * not one being overwritten.
 *
 * <p>Store order of a commit (both transports): rts word |= COMMITTING, the record, (wts, wid), then the rts
 * word = the new lease end, unlocked (so COMMITTING lasts only while the record is inconsistent, and the
 * commit releases the lock; RELEASE only undoes the locks of an aborted attempt). Every decision on words a stage saw is here, shared by both halves.
 */
class SundialTuple {
    static final HeaderLayout LAYOUT = HeaderLayout.of("rts", "wts", "wid");
    static final int RTS = LAYOUT.offset("rts");
    static final int WTS = LAYOUT.offset("wts");
    static final int WID = LAYOUT.offset("wid");
    static final int HEADER_BYTES = LAYOUT.bytes();

    /** Bits of the rts word. */
    static final long LOCKED = 1L << 62, COMMITTING = 1L << 61, RTS_MASK = COMMITTING - 1;

    /** COMMIT payload (RPC) and the one-sided version WRITE: wts, wid, then the record. */
    static final int COMMIT_WTS = 0, COMMIT_WID = 8, COMMIT_VERSION_BYTES = 16, COMMIT_RECORD = 16;

    static final AbortException READ_UNSTABLE = AbortException.conflict("read_unstable");
    static final AbortException LOCK_CONFLICT = AbortException.conflict("lock_conflict");
    static final AbortException RENEW_LOCKED = AbortException.conflict("renew_locked");
    static final AbortException RENEW_CHANGED = AbortException.conflict("renew_version_changed");
    static final AbortException NOT_FOUND = AbortException.conflict("not_found");

    /** Results of {@link #acceptRead}. */
    static final int READ_OK = 0, READ_OK_LOCKED = 1, READ_UNSTABLE_RETRY = 2;
    /** Results of {@link #lockStep} and {@link #renewStep} that are not a new CAS expectation (those are >= 0). */
    static final long DONE = -1, BUSY = -2, CHANGED = -3;

    static {
        if (RTS > WTS || WTS + 8 != WID) throw new AssertionError("rts must precede wts, wid must follow wts");
    }

    static long rtsOf(long word) { return word & RTS_MASK; }

    static boolean held(long word) { return (word & (LOCKED | COMMITTING)) != 0; }

    /**
     * Double-read check: {@code hdr} was read after the tuple image completed. Accept when the version words
     * agree and nobody was overwriting the record at the re-read. Why that suffices (words of one READ arrive
     * in address order): a writer overwriting the record during the image READ stored wts after the record,
     * and wts was equal at both reads, so that store came after the re-read of wts; it set COMMITTING before
     * the record, so the re-read of the rts word (before wts) saw COMMITTING.
     */
    static boolean stable(byte[] img, int imgOff, byte[] hdr, int hdrOff) {
        return Bytes.getLong(img, imgOff + WTS) == Bytes.getLong(hdr, hdrOff + WTS)
                && Bytes.getLong(img, imgOff + WID) == Bytes.getLong(hdr, hdrOff + WID)
                && (Bytes.getLong(hdr, hdrOff + RTS) & COMMITTING) == 0;
    }

    /** READ: takes the version and its lease (into {@code leases}). */
    static int acceptRead(Access a, Leases leases, byte[] img, byte[] hdr) {
        if (!stable(img, 0, hdr, 0)) return READ_UNSTABLE_RETRY;
        long word = Bytes.getLong(hdr, RTS);
        leases.read(a, Bytes.getLong(hdr, WTS), word);
        a.version = Bytes.getLong(hdr, WID);
        a.prevVersion = a.version;
        a.table.recordOf(img, a.record);
        a.fetchedRecord();
        return (word & LOCKED) != 0 ? READ_OK_LOCKED : READ_OK;
    }

    /**
     * LOCK: a CAS of the rts word from {@code expected} to {@code expected | LOCKED} found {@code found}.
     * Returns {@link #DONE} (locked), {@link #BUSY} (someone holds it) or the value to expect next (rts grew).
     */
    static long lockStep(long expected, long found) {
        if (found == expected) return DONE;
        if (held(found)) return BUSY;
        return found;
    }

    /**
     * LOCK of a write-set tuple at access time (RCC: "the transaction tries to lock the tuple") succeeded with
     * rts frozen at {@code rtsAtLock}; {@code img} is the whole tuple, read after the CAS, so it cannot be
     * torn by a writer: the version it holds is the one overwritten, and its record is the value read.
     */
    static void acceptLock(Access a, Leases leases, long rtsAtLock, byte[] img) {
        a.locked = true;
        leases.read(a, Bytes.getLong(img, WTS), rtsAtLock);   // RELEASE restores rtsAtLock after an abort
        a.version = Bytes.getLong(img, WID);
        a.prevVersion = a.version;
        a.table.recordOf(img, a.record);
        a.fetchedRecord();
    }

    /** The read lease of a read-only access (rts word {@code rtsWord}) ends before the commit timestamp: it must be renewed. */
    boolean needsRenewal(Access a, long rtsWord, long cts) { return !a.write && rtsOf(rtsWord) < cts; }

    /**
     * RENEW: a CAS of the rts word from {@code expected} (unlocked) to {@code cts} found {@code found};
     * {@code wtsAfter} was read after it. Returns {@link #DONE} (lease covers cts), {@link #BUSY} (locked,
     * lease too short), {@link #CHANGED} (a newer version exists) or the value to expect next.
     * A successful CAS needs no wts check: unlocked rts values only grow (renewals raise them, a commit
     * sets a larger one, an aborted lock restores the old one), so the word still equal to the value
     * read with the version means no commit happened since.
     */
    static long renewStep(long wts, long expected, long cts, long found, long wtsAfter) {
        if (found == expected) return DONE;
        if (wtsAfter != wts) return CHANGED;
        if (rtsOf(found) >= cts) return DONE;    // someone extended this version's lease far enough
        if (held(found)) return BUSY;
        return found;
    }

    static AbortException renewFailure(long step) { return step == CHANGED ? RENEW_CHANGED : RENEW_LOCKED; }

    /** The rts word while the holder overwrites the record. */
    static long committingWord(long rtsAtLock) { return rtsAtLock | LOCKED | COMMITTING; }

    /** The rts word once the new version is in place: lease [cts, cts], unlocked (the commit releases the lock). */
    static long committedWord(long cts) { return cts; }

    /** The (wts, wid) pair COMMIT installs. */
    static void versionImage(long cts, long txnId, byte[] dst, int off) {
        Bytes.putLong(dst, off + COMMIT_WTS, cts);
        Bytes.putLong(dst, off + COMMIT_WID, txnId);
    }

    /** The RPC COMMIT payload: the version pair, then the record. */
    static void commitImage(Access a, long cts, long txnId, byte[] dst, int off) {
        versionImage(cts, txnId, dst, off);
        System.arraycopy(a.update, 0, dst, off + COMMIT_RECORD, a.table.recordBytes);
    }
}
