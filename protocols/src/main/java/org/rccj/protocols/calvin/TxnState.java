package org.rccj.protocols.calvin;

import java.util.Arrays;
import org.rccj.framework.store.Table;

/**
 * A sequenced transaction as one participant node handles it: the whole input (type, pick, every access with the
 * version OLLP expects), its roles (which nodes are active, i.e. hold a record of the write set; which one reports
 * to the coordinator), this node's accesses with their tuple offsets and lock tickets, and the values collected so
 * far (this node's own, read under its locks, and those the other participants forwarded). Pooled by the node's
 * scheduler (no allocation per transaction once warm).
 */
final class TxnState {
    /** Waiting for this node's locks; then (active nodes only) for the other participants' values. */
    static final int LOCKS = 0, VALUES = 1;

    long txn;
    int coordNode, coordSlot, type;
    long sealedAt, syncFrom, syncTo, grantedAt;
    int state;
    boolean waited;
    /** The coordinator's saved pick. */
    byte[] pick = new byte[64];
    int pickBytes;

    // the whole access list, in the coordinator's order
    int count;
    Table[] table = new Table[4];
    long[] key = new long[4];
    int[] node = new int[4];
    boolean[] write = new boolean[4];
    /** OLLP: whether the access carries the digest of the record its reconnaissance read, and that digest. */
    boolean[] expects = new boolean[4];
    long[] expected = new long[4];
    // values collected: version (ABSENT: no such key) and record
    long[] version = new long[4];
    byte[][] record = new byte[4][];
    boolean[] have = new boolean[4];

    // this node's accesses: index into the lists above, tuple offset (-1: absent, nothing locked), ticket
    int localCount, next;
    int[] local = new int[4];
    long[] offset = new long[4];
    long[] ticket = new long[4];

    // roles
    /** Per node: holds a write-set record of this transaction. */
    boolean[] active = new boolean[0];
    /** Per node: holds any record of it. */
    boolean[] participant = new boolean[0];
    /** Per participant node: its position among the participant nodes in id order (its forward slots, {@link Forward}). */
    int[] rank = new int[0];
    /** The node that reports to the coordinator, or -1 for a read-only transaction (every participant forwards to it). */
    int reporter;
    /** Per node: its values have not arrived yet (active parts only). */
    boolean[] missing = new boolean[0];
    int missingCount;

    static final long ABSENT = -1;

    void init(long txn, int coordNode, int coordSlot, int type, long sealedAt, long syncFrom, long syncTo, int nodes) {
        this.txn = txn;
        this.coordNode = coordNode;
        this.coordSlot = coordSlot;
        this.type = type;
        this.sealedAt = sealedAt;
        this.syncFrom = syncFrom;
        this.syncTo = syncTo;
        count = 0;
        localCount = 0;
        next = 0;
        state = LOCKS;
        waited = false;
        pickBytes = 0;
        if (active.length != nodes) {
            active = new boolean[nodes];
            participant = new boolean[nodes];
            rank = new int[nodes];
            missing = new boolean[nodes];
        } else {
            Arrays.fill(active, false);
            Arrays.fill(participant, false);
            Arrays.fill(missing, false);
        }
        missingCount = 0;
    }

    void pick(byte[] src, int off, int bytes) {
        if (pick.length < bytes) pick = new byte[bytes];
        System.arraycopy(src, off, pick, 0, bytes);
        pickBytes = bytes;
    }

    void add(Table t, long k, int n, boolean w, boolean hasExpect, long expect) {
        if (count == table.length) {
            int c = count * 2;
            table = Arrays.copyOf(table, c);
            key = Arrays.copyOf(key, c);
            node = Arrays.copyOf(node, c);
            write = Arrays.copyOf(write, c);
            expects = Arrays.copyOf(expects, c);
            expected = Arrays.copyOf(expected, c);
            version = Arrays.copyOf(version, c);
            record = Arrays.copyOf(record, c);
            have = Arrays.copyOf(have, c);
        }
        table[count] = t;
        key[count] = k;
        node[count] = n;
        write[count] = w;
        expects[count] = hasExpect;
        expected[count] = expect;
        have[count] = false;
        if (record[count] == null || record[count].length < t.recordBytes) record[count] = new byte[t.recordBytes];
        participant[n] = true;
        if (w) active[n] = true;
        count++;
    }

    void addLocal(int index, long off, long tk) {
        if (localCount == local.length) {
            int c = localCount * 2;
            local = Arrays.copyOf(local, c);
            offset = Arrays.copyOf(offset, c);
            ticket = Arrays.copyOf(ticket, c);
        }
        local[localCount] = index;
        offset[localCount] = off;
        ticket[localCount] = tk;
        localCount++;
    }

    /** After every access was added: who reports, and (for an active {@code self}) whose values it waits for. */
    void roles(int self) {
        reporter = reporter(active, coordNode);
        ranks(participant, rank);
        if (!active[self]) return;
        for (int n = 0; n < participant.length; n++) {
            if (participant[n] && n != self) {
                missing[n] = true;
                missingCount++;
            }
        }
    }

    /** Numbers the participant nodes in id order (-1 for the others). */
    static void ranks(boolean[] participant, int[] rank) {
        int r = 0;
        for (int n = 0; n < participant.length; n++) rank[n] = participant[n] ? r++ : -1;
    }

    /** The coordinator's node if it is active, else the lowest active node; -1 when no node is (read-only). */
    static int reporter(boolean[] active, int coordNode) {
        if (active[coordNode]) return coordNode;
        for (int n = 0; n < active.length; n++) if (active[n]) return n;
        return -1;
    }
}
