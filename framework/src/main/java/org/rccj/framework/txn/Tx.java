package org.rccj.framework.txn;

import java.util.Arrays;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;

/**
 * The transaction as a workload sees it. A workload adds accesses ({@link #read}, {@link #readForUpdate},
 * {@link #write}), calls {@link #fetch()} to have the protocol bring them in (one batched round; several
 * rounds are allowed for dependent keys), reads and updates 8-byte fields of the records, and returns;
 * the protocol then commits. Reused per coroutine: nothing is allocated per transaction.
 */
public final class Tx {
    public final TxContext ctx;
    private TxEngine executor;
    private Access[] accesses = new Access[16];
    private int size, fetched;
    private long fetchNs;
    private AccessLongs[] state = new AccessLongs[0];
    /** Unique id of this attempt (never 0); also the version id its writes install. */
    public long id;
    /** Index of the transaction type in the workload's type list. */
    public int type;
    /** The generator whose pick this transaction runs (a protocol that replays the logic elsewhere saves its pick). */
    public PickSource source;

    public Tx(TxContext ctx) {
        this.ctx = ctx;
        for (int i = 0; i < accesses.length; i++) accesses[i] = new Access();
    }

    public void executor(TxEngine e) { this.executor = e; }

    /** Zeroes {@code s}'s value of every access added from now on (see {@link AccessLongs}). */
    void keep(AccessLongs s) {
        state = Arrays.copyOf(state, state.length + 1);
        state[state.length - 1] = s;
    }

    /** Starts a new attempt. */
    public void begin(long id, int type) {
        this.id = id;
        this.type = type;
        size = 0;
        fetched = 0;
        fetchNs = 0;
        executor.begin(this);
    }

    public int size() { return size; }

    /** Time this attempt spent in {@link #fetch()} (the protocol's fetch stages), ns. */
    public long fetchNanos() { return fetchNs; }
    public Access access(int i) { return accesses[i]; }

    public boolean readOnly() {
        for (int i = 0; i < size; i++) if (accesses[i].write) return false;
        return true;
    }

    /** Whether accesses {@code [from, to)} include a write. */
    public boolean hasWrites(int from, int to) {
        for (int i = from; i < to; i++) if (accesses[i].write) return true;
        return false;
    }

    /** Whether accesses {@code [from, to)} include a read-only access. */
    public boolean hasReads(int from, int to) {
        for (int i = from; i < to; i++) if (!accesses[i].write) return true;
        return false;
    }

    private int add(Table t, long key, boolean write, boolean needsValue) {
        for (int i = 0; i < size; i++) {
            Access a = accesses[i];
            if (a.table == t && a.key == key) {
                if (write && !a.write) {
                    throw new IllegalStateException("upgrading " + t.name + "#" + key + " from read to write after adding it: "
                            + "declare it with readForUpdate");
                }
                return i;
            }
        }
        if (size == accesses.length) {
            int old = accesses.length;
            accesses = Arrays.copyOf(accesses, old * 2);
            for (int i = old; i < accesses.length; i++) accesses[i] = new Access();
        }
        accesses[size].reset(size, t, key, t.nodeOf(key, ctx.nodes()), write, needsValue);
        for (AccessLongs s : state) s.added(size);
        return size++;
    }

    /** Adds a key to the read set; returns its handle. */
    public int read(Table t, long key) { return add(t, key, false, true); }

    /** Adds a key to the read and write sets (its value is fetched, then updated). */
    public int readForUpdate(Table t, long key) { return add(t, key, true, true); }

    /** Adds a key to the write set without needing its value (blind write). */
    public int write(Table t, long key) { return add(t, key, true, false); }

    /** Has the protocol fetch every access added since the last fetch. May abort. */
    public void fetch() {
        if (fetched < size) {
            int from = fetched;
            fetched = size;
            long t0 = ctx.now();
            // the coordinator's CPU work per access it brings in (building the access, taking the record
            // apart), as a handler pays it per item: charged here, once per access, whatever the protocol
            // and transport (docs/decisions/0077-tuple-op-charge-per-access.md)
            ctx.charge((long) (size - from) * ctx.tupleOpNs());
            if (ctx.fetchOneByOne()) {
                // fetch_items: one_by_one: one stage call per access, in order, as the artifact's rtx transactions
                // call read()/write() per item, each awaited (e.g. bank_worker_new_api.cc:88-93; decision 0176)
                for (int i = from; i < size; i++) fetchRange(i, i + 1);
            } else {
                fetchRange(from, size);
            }
            fetchNs += ctx.now() - t0;
        }
    }

    private void fetchRange(int from, int to) {
        ctx.fetchBegin(this, from, to);
        try {
            executor.fetch(this, from, to);
        } finally {
            ctx.fetchEnd(this, from, to);
        }
    }

    /** An 8-byte field of a record: the new value for writes, the value read otherwise. */
    public long get(int h, int field) {
        Access a = accesses[h];
        return Bytes.getLong(a.write ? a.update : a.record, field);
    }

    /** The value as read, even for a write. */
    public long getRead(int h, int field) { return Bytes.getLong(accesses[h].record, field); }

    public void put(int h, int field, long v) {
        Access a = accesses[h];
        if (!a.write) throw new IllegalStateException(a.table.name + "#" + a.key + " is not in the write set");
        Bytes.putLong(a.update, field, v);
    }

    /** The logic's own CPU work, {@code ns} (modelled on sim, spun on real threads); the protocol decides where it is paid. */
    public void compute(long ns) { executor.compute(this, ns); }

    /**
     * Charges the workload's own logic for this attempt of a transaction of type {@link #type}: the profile's measured
     * {@code logic_ns.WORKLOAD.TYPE} (docs/calibration.md) on sim, nothing on real fabrics. The framework calls it once
     * per attempt, after the logic ran (the coordinator's loop, and a replaying participant's run).
     */
    public void chargeLogic() { executor.logic(this, ctx.logicNs(type)); }

    /** Aborts the transaction for a workload-logic reason; it is not retried. */
    public void logicAbort() { throw AbortException.LOGIC; }
}
