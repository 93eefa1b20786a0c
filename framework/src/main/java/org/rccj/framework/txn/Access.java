package org.rccj.framework.txn;

import org.rccj.framework.store.Table;

/**
 * One tuple a transaction reads or writes: where it is, what was read, what will be written, and the
 * protocol's bookkeeping for it. Reused across transactions (no allocation per access).
 */
public final class Access {
    public Table table;
    public long key;
    /** Owner node of the key. */
    public int node;
    /** In the write set (read-for-update or blind write). */
    public boolean write;
    /** Whether the current value must be fetched (false for blind writes). */
    public boolean needsValue;
    /** Tuple offset on the owner node, -1 until located. */
    public long offset;
    /** Version id of the value read (0 = loaded value); for the history and for validation. */
    public long version;
    /** Version id the write replaces (normally {@link #version}). */
    public long prevVersion;
    /** Protocol bookkeeping (more per-access state: {@link AccessLongs}). */
    public boolean locked, fetched;
    /** Position in the transaction (index of {@link Tx#access}); keys the protocol's {@link AccessLongs}. */
    public int index;
    /** The tuple image (header words and record) as fetched. */
    public byte[] image = new byte[64];
    /** The key is not in the table (the fetch found no tuple). */
    public boolean absent;
    /** The record as read. */
    public byte[] record = new byte[64];
    /** The record to install (writes); starts as a copy of {@link #record}. */
    public byte[] update = new byte[64];

    void reset(int index, Table t, long key, int node, boolean write, boolean needsValue) {
        this.index = index;
        this.table = t;
        this.key = key;
        this.node = node;
        this.write = write;
        this.needsValue = needsValue;
        this.offset = -1;
        this.version = 0;
        this.prevVersion = 0;
        this.locked = false;
        this.fetched = false;
        this.absent = false;
        if (image.length < t.tupleBytes) image = new byte[t.tupleBytes];
        if (record.length < t.recordBytes) {
            record = new byte[t.recordBytes];
            update = new byte[t.recordBytes];
        }
    }

    /** Called by protocols after the record bytes are in {@link #record}: prepares {@link #update}. */
    public void fetchedRecord() {
        fetched = true;
        if (write) System.arraycopy(record, 0, update, 0, table.recordBytes);
    }
}
