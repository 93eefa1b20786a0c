package org.rccj.framework.store;

import org.rccj.primitives.Bytes;
import org.rccj.primitives.RegisteredMemory;

/**
 * A partitioned table of fixed-size tuples in registered memory. On every node it has a tuple region and
 * an index region with the same ids, so a remote address is (node, region, offset).
 * Tuple = {@link HeaderLayout} words then the record ({@link #recordOffset}); protocols that keep
 * versions declare several record slots, each {@link #slotBytes} long, slot 0 first.
 */
public final class Table {
    public final int id;
    public final String name;
    public final int recordBytes;
    public final int recordOffset;
    /** Distance between two record slots (the record rounded up to 8 bytes). */
    public final int slotBytes;
    public final int tupleBytes;
    public final long capacityPerNode;
    public final Partitioner partitioner;
    public final HashIndex index;
    public final HeaderLayout header;
    int region = -1, indexRegion = -1;
    /** Next free tuple slot per node (load time and inserts, owner node only). */
    final long[] used;

    Table(int id, TableSpec spec, HeaderLayout header, int nodes) {
        this.id = id;
        this.name = spec.name();
        this.recordBytes = spec.recordBytes();
        this.header = header;
        this.recordOffset = header.bytes();
        this.slotBytes = Bytes.align8(recordBytes);
        this.tupleBytes = recordOffset + slotBytes * header.recordSlots();
        this.partitioner = spec.partitioner();
        long perNode = capacityPerNode(spec, nodes);
        this.capacityPerNode = perNode;
        this.index = new HashIndex(perNode);
        this.used = new long[nodes];
    }

    /** Tuple slots of a table on each node: its share of the expected rows with 15% to spare (hash placement is uneven). */
    public static long capacityPerNode(TableSpec spec, int nodes) { return (long) Math.ceil(spec.expectedRows() / (double) nodes * 1.15) + 256; }

    /** Offset of record slot {@code slot} within a tuple. */
    public int recordOffset(int slot) { return recordOffset + slot * slotBytes; }

    public int region() { return region; }
    public int indexRegion() { return indexRegion; }

    public int nodeOf(long key, int nodes) { return partitioner.node(key, nodes); }

    public long tupleOffset(long slot) { return slot * tupleBytes; }

    /** Whether an offset is a tuple boundary inside this table's region (guards cached locations). */
    public boolean validTupleOffset(long off) {
        return off >= 0 && off < capacityPerNode * tupleBytes && off % tupleBytes == 0;
    }

    /** Takes the next tuple slot of a node and returns its index (the row goes there; another process may write it). */
    synchronized long skipSlot(int node) {
        if (used[node] >= capacityPerNode) {
            throw new IllegalStateException("table " + name + " is full on node " + node + " (" + capacityPerNode + " rows)");
        }
        return used[node]++;
    }

    /** Rows stored on a node. */
    public long rows(int node) { return used[node]; }

    /** Allocates a tuple slot on its owner node, writes key and record, and indexes it. */
    public synchronized long insertLocal(RegisteredMemory m, long key, byte[] record) {
        long off = tupleOffset(skipSlot(m.node()));
        writeAt(m, off, key, record, 0);
        return off;
    }

    /**
     * Writes key and record ({@code record[from..]}) into a slot already taken on node {@code m}'s memory and indexes
     * it. Slots of one node must be written in the order they were taken (the index's overflow buckets follow that
     * order); different nodes' memory may be written at the same time (a parallel load, {@link Store#loadThreads}).
     */
    void writeAt(RegisteredMemory m, long off, long key, byte[] record, int from) {
        m.putLong(region, off + HeaderLayout.KEY, key);
        if (record != null) m.write(region, off + recordOffset, record, from, recordBytes);
        index.insertLocal(m, indexRegion, id, key, off);
    }

    /**
     * Reads one 8-byte field of a tuple's current record on its owner node (invariant checks, tests); the
     * current record is slot 0 unless the protocol's header says otherwise ({@link HeaderLayout#currentSlot}).
     */
    public long getField(RegisteredMemory m, long tupleOff, int field) {
        return m.getLongVolatile(region, tupleOff + recordOffset(header.currentSlot(m, region, tupleOff)) + field);
    }

    public void putField(RegisteredMemory m, long tupleOff, int field, long v) {
        m.putLongVolatile(region, tupleOff + recordOffset(header.currentSlot(m, region, tupleOff)) + field, v);
    }

    /** Key of the tuple in a slot. */
    public long keyAt(RegisteredMemory m, long slot) { return m.getLong(region, tupleOffset(slot) + HeaderLayout.KEY); }

    /** Copies a record out of a fetched tuple image. */
    public void recordOf(byte[] tuple, byte[] dst) { System.arraycopy(tuple, recordOffset, dst, 0, recordBytes); }

    public static long keyOf(byte[] tuple) { return Bytes.getLong(tuple, HeaderLayout.KEY); }
}
