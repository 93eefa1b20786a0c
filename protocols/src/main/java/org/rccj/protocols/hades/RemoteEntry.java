package org.rccj.protocols.hades;

/**
 * Module 4a: the RemoteRead/WriteBF pair a node's NIC keeps for one remote transaction attempt, registered
 * when the attempt's first request reaches that NIC ({@link HadesNode#entry}), with the "squashed here" mark
 * that makes the NIC refuse that attempt's Intend-to-commit (gap b). Entries are pooled per node.
 */
final class RemoteEntry extends Holder {
    /** Validation payload per record: table id, tuple offset, then the tuple from the wid word on. */
    static final int V_TABLE = 0, V_OFFSET = 8, V_TUPLE = 16;

    boolean squashedHere;

    RemoteEntry(HadesOptions o) { super(o, false); }

    void reset(HadesTxn owner, long txnId) {
        this.owner = owner;
        this.txnId = txnId;
        this.squashedHere = false;
        this.fallback = false;
        clear();
    }
}
