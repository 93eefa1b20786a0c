package org.rccj.protocols.locking;

import java.lang.invoke.VarHandle;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.primitives.Bytes;

/**
 * The header words every two-phase-locking protocol has: a lock word holding the owner (0 = free) and a
 * version word holding the id of the transaction whose write installed the record (0 = loaded value).
 * The version word directly precedes the record, so a commit installs both with one WRITE. A protocol
 * declares its whole layout (it may add words, e.g. WAITDIE's waiter mark) and builds one of these from it.
 */
public final class LockWords {
    public static final String LOCK_WORD = "lock", VERSION_WORD = "version";

    public final HeaderLayout layout;
    /** Offsets of the lock and version words in a tuple. */
    public final int lock, version;
    /** A commit writes the version word and the record in one WRITE starting here. */
    public final int commitSpan;

    public LockWords(HeaderLayout layout) {
        this.layout = layout;
        this.lock = layout.offset(LOCK_WORD);
        this.version = layout.offset(VERSION_WORD);
        this.commitSpan = version;
        if (version + 8 != layout.bytes()) throw new IllegalArgumentException("the version word must directly precede the record: " + layout);
    }

    /** Bytes a commit writes for a tuple of {@code t}: version word and record. */
    public int commitBytes(Table t) { return 8 + t.recordBytes; }

    /** A tuple image read while holding its lock: its version (for the history) and its record. */
    public void acceptImage(Access a) {
        a.version = Bytes.getLong(a.image, version);
        a.prevVersion = a.version;
        a.table.recordOf(a.image, a.record);
        a.fetchedRecord();
    }

    /** Fills the commit image of a write: the new version id, then the record. */
    public void commitImage(Access a, long txnId, byte[] dst, int off) {
        Bytes.putLong(dst, off, txnId);
        System.arraycopy(a.update, 0, dst, off + 8, a.table.recordBytes);
    }

    /**
     * Server half of a lock attempt on the owner node, the same atomics as the one-sided half: looks the key
     * up, CASes the lock word from 0 to {@code value} and copies the tuple image behind it (meaningful only
     * if the CAS succeeded). Reply item: R0 = tuple offset or -1 (no such key), payload = image.
     * @return the value the CAS found (0 = taken), or -1 if the key is absent
     */
    public long serveLock(RpcWorker w, Table t, long key, long value, byte[] reply, int r) {
        long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
        Bytes.putLong(reply, r + TupleRpc.REPLY_R0, off);
        if (off < 0) return -1;
        long found = w.memory.cas(t.region(), off + lock, 0, value);
        copyImage(w, t, off, reply, r + TupleRpc.REPLY_BYTES);
        return found;
    }

    /**
     * Server half of a shared read lock ({@link ReadLocks}): looks the key up, raises the reader count with
     * CASes and copies the image behind them. Reply item as {@link #serveLock}.
     * @return 0 if the shared lock was taken, non-zero if a writer holds the tuple, -1 if the key is absent
     */
    public long serveShared(RpcWorker w, Table t, long key, byte[] reply, int r) {
        long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
        Bytes.putLong(reply, r + TupleRpc.REPLY_R0, off);
        if (off < 0) return -1;
        long found = ReadLocks.serveShared(w.memory, t.region(), off + lock);
        copyImage(w, t, off, reply, r + TupleRpc.REPLY_BYTES);
        return found;
    }

    /** Copies a tuple image out of the owner node's memory (after the lock CAS, so it is ordered behind it). */
    public void copyImage(RpcWorker w, Table t, long off, byte[] dst, int p) {
        w.memory.read(t.region(), off, dst, p, t.tupleBytes);
        VarHandle.acquireFence();
    }

    /** One-sided: keeps the tuple image READ behind a lock CAS, after checking it is the access's tuple. */
    public static void takeImage(Access a, byte[] image) {
        if (Table.keyOf(image) != a.key) {
            // Tuples never move in this store (inserted rows are pre-allocated slots, docs/decisions/),
            // so a cached location cannot go stale; a lock CAS at a wrong location would corrupt another tuple.
            throw new IllegalStateException("lock at " + a.table.name + "#" + a.key + " found key " + Table.keyOf(image)
                    + ": one-sided locking needs tuples that never move");
        }
        System.arraycopy(image, 0, a.image, 0, a.table.tupleBytes);
    }
}
