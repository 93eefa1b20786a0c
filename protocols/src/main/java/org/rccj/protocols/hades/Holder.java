package org.rccj.protocols.hades;

/**
 * A pair of read/write filters that can occupy a Locking Buffer: a transaction's local pair at its own
 * node ({@link HadesTxn#local}) or its remote pair in another node's NIC ({@link RemoteEntry}).
 */
class Holder {
    final Filter read, write;
    /**
     * The transaction the pair belongs to (for a NIC entry: only its address, where a squash is sent; its state
     * lives on its own node), and the attempt it was filled for (unique in the run: it names the attempt).
     */
    HadesTxn owner;
    long txnId;
    boolean locked;
    /** The attempt runs the livelock fallback (it locks its lines before accessing them). */
    boolean fallback;

    Holder(HadesOptions o, boolean local) {
        if (local) {
            read = new Filter(new Bloom(o.localReadBits(), o.localReadHashes(), 0));
            write = new Filter(new Bloom(o.localWriteBits(), o.localWriteHashes(), o.localWriteIndexBits()));
        } else {
            read = new Filter(new Bloom(o.remoteBits(), o.remoteHashes(), 0));
            write = new Filter(new Bloom(o.remoteBits(), o.remoteHashes(), 0));
        }
    }

    void clear() {
        read.clear();
        write.clear();
        locked = false;
    }
}
