package org.rccj.protocols.drtm;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.AccessLongs;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.RegisteredMemory;

/**
 * The emulated HTM region of one coroutine: DrTM accesses records on the coordinator's own node inside
 * an RTM transaction instead of locking them. Emulation:
 * <ul>
 * <li>Reads ({@link #read}) are plain loads from the node's memory, in the order version word, lock word,
 *   record; a record whose lock word holds an exclusive owner aborts the region (DrTM's HTM code checks the
 *   lock word and XABORTs). The words seen are remembered: the lock word in {@link #seen}, the version in
 *   {@code version}. Writes are buffered (the transaction's update images), as the hardware buffers them
 *   in the L1 cache.</li>
 * <li>Read and write sets are tracked in 64-byte lines of the tuples touched; a set larger than
 *   {@code htm_capacity_lines} aborts the region (capacity abort).</li>
 * <li>XEND ({@link #prepare}, then {@link #apply}): the hardware detects a conflict when another core or
 *   the NIC (a one-sided op, strongly atomic with RTM) writes a line in the read set, or touches one in
 *   the write set, before the commit. The emulation checks that every word a conflicting writer must
 *   change is unchanged: each written line's lock word is CASed from the value seen to a commit marker
 *   (exclusive, owned by this attempt) — this is the cache-coherence protocol holding the lines during
 *   commit — and every line's version word (and, for read-only lines, its lock word) is compared with the
 *   value seen. A remote lock or lease CAS, a remote or local write-back, and another HTM commit all change
 *   one of them, so each is detected; leases written after the region read a record abort it exactly
 *   as a one-sided CAS on that line aborts a real RTM transaction. Then the buffered writes are installed
 *   (new version = this attempt's id) and the markers cleared.</li>
 * </ul>
 * The whole XEND runs without yielding, so on {@code sim} it is one atomic step (a coroutine segment runs
 * alone); on {@code local} the markers make it atomic against the other threads. Conflicts are detected
 * per tuple, not per line: two tuples sharing a line do not conflict (no false sharing).
 */
final class DrtmHtm {
    private final CoroutineContext ctx;
    /** Per local access: the lock word the region read (XEND validates it and restores it on a rollback). */
    private final AccessLongs seen;
    private final DrtmLockWord word;
    private final DrtmCounters counters;
    private final int capacity;
    private final CacheLineSet readLines, writeLines;
    private final RegisteredMemory memory;
    private int[] marked = new int[8];
    private int nMarked;
    private boolean active;
    private byte[] image = new byte[64];

    DrtmHtm(CoroutineContext ctx, DrtmLockWord word, DrtmCounters counters, int capacityLines) {
        this.ctx = ctx;
        this.seen = new AccessLongs(ctx.tx);
        this.word = word;
        this.counters = counters;
        this.capacity = capacityLines;
        this.readLines = new CacheLineSet(capacityLines + 1);
        this.writeLines = new CacheLineSet(capacityLines + 1);
        this.memory = ctx.worker().memory;
    }

    /** XBEGIN of a new attempt (the region becomes active at its first local access). */
    void begin() {
        readLines.clear();
        writeLines.clear();
        nMarked = 0;
        active = false;
    }

    /** The region touched a local record in this attempt. */
    boolean active() { return active; }

    static boolean local(Access a, CoroutineContext ctx) { return a.node == ctx.node; }

    /** Reads the local accesses of {@code [from, to)} inside the region. */
    void read(Tx tx, int from, int to) {
        for (int i = from; i < to; i++) {
            Access a = tx.access(i);
            if (!local(a, ctx)) continue;
            if (!active) {
                active = true;
                counters.htmRegion(ctx);
            }
            locateLocal(a);
            track(a);
            readLocal(a);
        }
    }

    private void locateLocal(Access a) {
        if (a.offset >= 0) return;
        Table t = a.table;
        long off = ctx.cache().get(t.id, a.key);
        if (off < 0) {
            ctx.charge(ctx.cost.localOpNs);
            off = t.index.lookupLocal(memory, t.indexRegion(), t.id, a.key);
            if (off < 0) {
                a.absent = true;
                throw DrtmTuple.NOT_FOUND;
            }
            ctx.cache().put(t.id, a.key, off);
        }
        a.offset = off;
    }

    private void track(Access a) {
        int region = a.table.region();
        long first = a.offset, last = a.offset + a.table.tupleBytes - 1;
        for (long l = CacheLineSet.line(region, first); l <= CacheLineSet.line(region, last); l++) {
            if (!readLines.add(l) || readLines.size() > capacity) throw DrtmTuple.HTM_CAPACITY;
            if (a.write && (!writeLines.add(l) || writeLines.size() > capacity)) throw DrtmTuple.HTM_CAPACITY;
        }
    }

    private void readLocal(Access a) {
        Table t = a.table;
        int region = t.region();
        ctx.charge(ctx.cost.localOpNs);
        long version = memory.getLongVolatile(region, a.offset + DrtmTuple.VERSION);
        long lock = memory.getLongVolatile(region, a.offset + DrtmTuple.LOCK);
        if (DrtmLockWord.isExclusive(lock)) throw DrtmTuple.HTM_LOCKED;
        memory.read(region, a.offset + t.recordOffset, a.record, 0, t.recordBytes);
        VarHandle.acquireFence();
        a.version = version;
        a.prevVersion = version;
        seen.set(a, lock);
        a.fetchedRecord();
    }

    /**
     * XEND, first half: holds the written lines (commit markers) and checks that nothing the region read
     * changed. On a conflict it restores what it marked and throws. {@code now} is the protocol clock, for
     * leases found on written lines (a lease expired past DELTA no longer keeps a writer out).
     */
    void prepare(Tx tx, long now) {
        nMarked = 0;
        long marker = DrtmLockWord.exclusive(tx.id);
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!a.write || !local(a, ctx)) continue;
            ctx.charge(ctx.cost.localOpNs);
            int region = a.table.region();
            long seen = this.seen.get(a);
            if (!word.writable(seen, now)) abort(DrtmTuple.HTM_LEASED, tx);
            if (memory.cas(region, a.offset + DrtmTuple.LOCK, seen, marker) != seen) abort(DrtmTuple.HTM_CONFLICT, tx);
            if (nMarked == marked.length) marked = Arrays.copyOf(marked, nMarked * 2);
            marked[nMarked++] = i;
            if (memory.getLongVolatile(region, a.offset + DrtmTuple.VERSION) != a.version) abort(DrtmTuple.HTM_CONFLICT, tx);
        }
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.write || !local(a, ctx)) continue;
            ctx.charge(ctx.cost.localOpNs);
            int region = a.table.region();
            if (memory.getLongVolatile(region, a.offset + DrtmTuple.LOCK) != seen.get(a)
                    || memory.getLongVolatile(region, a.offset + DrtmTuple.VERSION) != a.version) {
                abort(DrtmTuple.HTM_CONFLICT, tx);
            }
        }
    }

    private void abort(RuntimeException e, Tx tx) {
        rollback(tx);
        throw e;
    }

    /** Undoes {@link #prepare}: restores the lock words it marked. */
    void rollback(Tx tx) {
        for (int k = 0; k < nMarked; k++) {
            Access a = tx.access(marked[k]);
            memory.putLongVolatile(a.table.region(), a.offset + DrtmTuple.LOCK, seen.get(a));
        }
        nMarked = 0;
    }

    /** XEND, second half: installs the buffered writes and clears the markers. */
    void apply(Tx tx) {
        for (int k = 0; k < nMarked; k++) {
            Access a = tx.access(marked[k]);
            Table t = a.table;
            int bytes = DrtmTuple.commitBytes(t);
            if (image.length < bytes) image = new byte[bytes];
            DrtmTuple.commitImage(a, tx.id, image, 0);
            memory.write(t.region(), a.offset + DrtmTuple.COMMIT_SPAN, image, 0, bytes);
            memory.putLongVolatile(t.region(), a.offset + DrtmTuple.LOCK, DrtmLockWord.FREE);
        }
        nMarked = 0;
    }
}
