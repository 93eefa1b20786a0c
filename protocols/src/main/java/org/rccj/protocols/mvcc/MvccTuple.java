package org.rccj.protocols.mvcc;

import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * MVCC's tuple: header {@code key, tts, rts, wts0, wid0, ..., wts{k-1}, wid{k-1}} followed by k record slots.
 * {@code tts} is the lock (timestamp of the writer holding it, 0 = free), {@code rts} the largest timestamp
 * that read the tuple, {@code wts_s} the timestamp of the version in slot s and {@code wid_s} the id of the
 * transaction that installed it (the unique version id the history needs; timestamps are not). A slot
 * s > 0 with {@code wts_s == 0} is empty; slot 0 with {@code wts_0 == 0} is the loaded value, so a freshly
 * loaded (zeroed) header needs no initialisation.
 *
 * <p>Every decision a stage takes on the words it saw is here, shared by the one-sided and RPC halves.
 * Images passed in are byte arrays laid out like the tuple (header words at their tuple offsets).
 *
 * <p>Write order of a commit (both transports): the record into the victim slot, then {@code (wts, wid)}
 * of that slot, then (RELEASE) {@code tts = 0}; each a separate, ordered store.
 */
class MvccTuple {
    static final AbortException READ_LOCKED = AbortException.conflict("read_locked");
    static final AbortException NO_VERSION = AbortException.conflict("no_version");
    static final AbortException VERSION_RECYCLED = AbortException.conflict("version_recycled");
    static final AbortException READ_UNSTABLE = AbortException.conflict("read_unstable");
    static final AbortException WRITE_RTS = AbortException.conflict("write_rts");
    static final AbortException WRITE_WTS = AbortException.conflict("write_wts");
    static final AbortException LOCK_CONFLICT = AbortException.conflict("lock_conflict");
    static final AbortException NOT_FOUND = AbortException.conflict("not_found");

    /** Results of {@link #acceptRead} that are not aborts. */
    static final int READ_NEWEST = 0, READ_OLDER = 1, READ_UNSTABLE_RETRY = 2;
    /** Flag on a read result: the tuple was locked by a later writer and was read anyway. */
    static final int READ_PAST_LOCK = 4;

    /** COMMIT payload (RPC request) and the one-sided version WRITE: wts, wid of the slot, then the record. */
    static final int COMMIT_WTS = 0, COMMIT_WID = 8, COMMIT_VERSION_BYTES = 16, COMMIT_RECORD = 16;

    final int slots;
    final HeaderLayout layout;
    final int tts, rts;
    /** Offsets of wts_s and wid_s; wid_s directly follows wts_s, so one 16-byte store installs both. */
    final int[] wts, wid;
    final int headerBytes;

    MvccTuple(int slots) {
        this.slots = slots;
        String[] words = new String[2 + 2 * slots];
        words[0] = "tts";
        words[1] = "rts";
        for (int s = 0; s < slots; s++) {
            words[2 + 2 * s] = "wts" + s;
            words[3 + 2 * s] = "wid" + s;
        }
        HeaderLayout base = HeaderLayout.of(words);
        this.layout = base.withRecordSlots(slots).withCurrentSlot(this::currentSlot);
        this.tts = layout.offset("tts");
        this.rts = layout.offset("rts");
        this.wts = new int[slots];
        this.wid = new int[slots];
        for (int s = 0; s < slots; s++) {
            wts[s] = layout.offset("wts" + s);
            wid[s] = layout.offset("wid" + s);
            if (wid[s] != wts[s] + 8) throw new AssertionError("wid must follow wts");
        }
        this.headerBytes = layout.bytes();
        // a torn READ of the header must see tts before any version word (see acceptRead)
        if (tts > rts || rts > wts[0]) throw new AssertionError("tts, rts must precede the version words");
    }

    long wtsOf(byte[] h, int off, int s) { return Bytes.getLong(h, off + wts[s]); }

    boolean valid(byte[] h, int off, int s) { return s == 0 || wtsOf(h, off, s) != 0; }

    /** Slot holding the newest version. */
    int newest(byte[] h, int off) {
        int n = 0;
        for (int s = 1; s < slots; s++) if (valid(h, off, s) && wtsOf(h, off, s) > wtsOf(h, off, n)) n = s;
        return n;
    }

    /** Slot the next committed write overwrites: the first empty slot, else the oldest version. */
    int victim(byte[] h, int off) {
        for (int s = 1; s < slots; s++) if (wtsOf(h, off, s) == 0) return s;
        int v = 0;
        for (int s = 1; s < slots; s++) if (wtsOf(h, off, s) < wtsOf(h, off, v)) v = s;
        return v;
    }

    /** The slot with the newest version, read from memory (invariant checks after a run). */
    private int currentSlot(RegisteredMemory m, int region, long off) {
        int n = 0;
        long best = m.getLongVolatile(region, off + wts[0]);
        for (int s = 1; s < slots; s++) {
            long w = m.getLongVolatile(region, off + wts[s]);
            if (w != 0 && w > best) { best = w; n = s; }
        }
        return n;
    }

    /** Largest timestamp in a header, for adjusting a coroutine's clock. */
    long maxTimestamp(byte[] h, int off) {
        long m = Math.max(Bytes.getLong(h, off + tts), Bytes.getLong(h, off + rts));
        for (int s = 0; s < slots; s++) m = Math.max(m, wtsOf(h, off, s));
        return m;
    }

    /**
     * Double-read check: the version words of the second READ (issued after the first completed) equal
     * those of the tuple image. Together with {@link #acceptRead}'s lock rules this proves the record
     * slot taken from the image is the one its wts/wid name.
     */
    boolean stable(byte[] img, int imgOff, byte[] hdr, int hdrOff) {
        for (int s = 0; s < slots; s++) {
            if (Bytes.getLong(img, imgOff + wts[s]) != Bytes.getLong(hdr, hdrOff + wts[s])) return false;
            if (Bytes.getLong(img, imgOff + wid[s]) != Bytes.getLong(hdr, hdrOff + wid[s])) return false;
        }
        return true;
    }

    /** A reader at {@code ts} must raise a tuple's rts (a CAS) while it is below ts. */
    boolean needsRtsRaise(long rts, long ts) { return rts < ts; }

    /** The rts raise is done once a CAS expecting {@code expected} found it, or found rts >= ts already. */
    static boolean rtsCovered(long expected, long found, long ts) { return found == expected || found >= ts; }

    /** RPC half of the rts raise: CAS until the tuple's rts is at least {@code ts}. */
    void raiseRts(RegisteredMemory m, int region, long off, long ts) {
        long cur = m.getLongVolatile(region, off + rts);
        while (needsRtsRaise(cur, ts)) {
            long found = m.cas(region, off + rts, cur, ts);
            if (rtsCovered(cur, found, ts)) return;
            cur = found;
        }
    }

    /**
     * READ (rules R1/R2) of a read-set tuple on a tuple image and a header read after the image completed and
     * after rts was raised to {@code ts}. Sets the access's record and version ids. Returns {@link #READ_UNSTABLE_RETRY} when the two reads
     * disagree (read again), else {@link #READ_NEWEST} or {@link #READ_OLDER}, maybe with {@link #READ_PAST_LOCK}.
     *
     * <p>Why a torn image cannot pass: a writer overwrites a record slot only while holding tts, and
     * writes that slot's wts/wid after the record. If the record words of the image were being overwritten
     * in slot j, that writer's wts store happened after the header re-read of wts_j (else the wts words
     * differ), so it still held tts when the re-read saw tts (tts is read first): the re-read shows
     * tts = that writer, whose victim is j. R2 then aborts (earlier writer) or the victim rule does.
     */
    int acceptRead(Access a, long ts, byte[] img, byte[] hdr) {
        if (!stable(img, 0, hdr, 0)) return READ_UNSTABLE_RETRY;
        long lock = Bytes.getLong(hdr, tts);
        if (lock != 0 && lock < ts) throw READ_LOCKED;                       // R2: an earlier write is pending
        int j = -1;
        for (int s = 0; s < slots; s++) {
            long w = wtsOf(hdr, 0, s);
            if (valid(hdr, 0, s) && w < ts && (j < 0 || w > wtsOf(hdr, 0, j))) j = s;   // R1: newest before ts
        }
        if (j < 0) throw NO_VERSION;
        if (lock != 0 && j == victim(hdr, 0)) throw VERSION_RECYCLED;       // the later writer replaces it
        int newest = newest(hdr, 0);
        a.version = Bytes.getLong(hdr, wid[j]);
        a.prevVersion = a.version;
        System.arraycopy(img, a.table.recordOffset(j), a.record, 0, a.table.recordBytes);
        a.fetchedRecord();
        return (j != newest ? READ_OLDER : READ_NEWEST) | (lock != 0 ? READ_PAST_LOCK : 0);
    }

    /**
     * LOCK of a write-set tuple at access time (RCC: "the record is locked with tuple.tts updated to ctts"):
     * the CAS on tts found {@code found}; {@code img} is the whole tuple, read after the CAS. Under the lock no
     * other writer can change the tuple, so one READ suffices (no double read). W1: no later reader (rts) and
     * no version newer than {@code ts}; then the newest version is the one read (record and version ids) and
     * the slot COMMIT will overwrite is chosen (in {@code versions}). Write-only accesses raise no rts.
     */
    void acceptLock(Access a, Versions versions, long ts, long found, byte[] img) {
        if (found != 0) throw LOCK_CONFLICT;
        a.locked = true;
        if (Bytes.getLong(img, rts) > ts) throw WRITE_RTS;
        int newest = newest(img, 0);
        if (wtsOf(img, 0, newest) > ts) throw WRITE_WTS;
        versions.victim(a, victim(img, 0));
        a.version = Bytes.getLong(img, wid[newest]);
        a.prevVersion = a.version;
        System.arraycopy(img, a.table.recordOffset(newest), a.record, 0, a.table.recordBytes);
        a.fetchedRecord();
    }

    /** The (wts, wid) pair COMMIT installs in the victim slot's header words. */
    static void versionImage(long ts, long txnId, byte[] dst, int off) {
        Bytes.putLong(dst, off + COMMIT_WTS, ts);
        Bytes.putLong(dst, off + COMMIT_WID, txnId);
    }

    /** The RPC COMMIT payload: the version pair, then the record. */
    static void commitImage(Access a, long ts, long txnId, byte[] dst, int off) {
        versionImage(ts, txnId, dst, off);
        System.arraycopy(a.update, 0, dst, off + COMMIT_RECORD, a.table.recordBytes);
    }
}
