package org.rccj.protocols.hades;

import org.rccj.primitives.Bytes;
import org.rccj.primitives.NicAction;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;

/**
 * Module 4a: the RemoteRead/WriteBF pair a node's NIC keeps for one remote transaction, with the
 * "squashed here" mark that makes the NIC refuse that transaction's Intend-to-commit (gap b). It is also
 * the NIC action of the transaction's Validation message to this node: write the data, unlock, clear.
 */
final class RemoteEntry extends Holder implements NicAction {
    /** Validation payload per record: table id, tuple offset, then the tuple from the wid word on. */
    static final int V_TABLE = 0, V_OFFSET = 8, V_TUPLE = 16;

    final HadesProtocol protocol;
    /** Index in the protocol's entry list (an RPC Validation names its entry by it). */
    final int id;
    int node;
    boolean squashedHere;

    RemoteEntry(HadesProtocol p) {
        super(p.options, false);
        this.protocol = p;
        this.id = p.entries.size();
        p.entries.add(this);
    }

    void reset(HadesTxn owner, long txnId, int node) {
        this.owner = owner;
        this.txnId = txnId;
        this.node = node;
        this.squashedHere = false;
        clear();
    }

    /** Validation (target steps 4 and 5): the update data reaches memory, then the entry is unlocked and cleared. */
    @Override
    public boolean atNic(Op op, RegisteredMemory m, long now) {
        apply(op.data, 0, op.length, m);
        return false;
    }

    /** Writes the records of a Validation payload {@code d[from, to)} to this node's memory, then unlocks and clears. */
    void apply(byte[] d, int from, int to, RegisteredMemory m) {
        int p = from;
        while (p < to) {
            org.rccj.framework.store.Table t = protocol.cluster.store.table((int) Bytes.getLong(d, p + V_TABLE));
            long off = Bytes.getLong(d, p + V_OFFSET);
            int span = t.tupleBytes - HadesTuple.WID;
            m.write(t.region(), off + HadesTuple.WID, d, p + V_TUPLE, span);
            p += V_TUPLE + HadesTuple.align8(span);
        }
        protocol.node(node).release(this);
    }
}
