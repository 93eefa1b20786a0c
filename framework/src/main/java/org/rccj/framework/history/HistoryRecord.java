package org.rccj.framework.history;

/**
 * One committed transaction of a history (docs/architecture.md). {@code reads} holds triples
 * (table, key, version) flattened; {@code writes} holds quadruples (table, key, version, prev_version).
 * A version is the unique id of the committed write that installed a value; 0 is the loaded value.
 * Table ids index the table-name list that accompanies a history.
 */
public record HistoryRecord(long txn, String type, long[] reads, long[] writes) implements java.io.Serializable {
    public int readCount() { return reads.length / 3; }
    public int writeCount() { return writes.length / 4; }
    public int readTable(int i) { return (int) reads[3 * i]; }
    public long readKey(int i) { return reads[3 * i + 1]; }
    public long readVersion(int i) { return reads[3 * i + 2]; }
    public int writeTable(int i) { return (int) writes[4 * i]; }
    public long writeKey(int i) { return writes[4 * i + 1]; }
    public long writeVersion(int i) { return writes[4 * i + 2]; }
    public long writePrev(int i) { return writes[4 * i + 3]; }
}
