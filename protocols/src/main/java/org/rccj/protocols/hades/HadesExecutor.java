package org.rccj.protocols.hades;

import java.util.function.LongPredicate;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.Stage;
import org.rccj.framework.api.TxnExecutor;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.protocols.occ.SwImplCosts;

/**
 * One coroutine's HADES / HADES-H transaction. Execution (READ stage): local accesses go through the
 * directory checks of {@link HadesNode#localAccess} (HADES) or the SW-Impl software path (HADES-H); remote
 * ones are READs the target NIC records in the transaction's remote filters. Commit (VALIDATE stage, the
 * paper's "Validation" part): local partial lock and NIC probe (steps 1-2), Intend-to-commit/Ack (3), the
 * point of no return, HADES-H's local validation, local writes made non-speculative (4), Validation with
 * the data to every node involved, applied and unlocked by its NIC (5), local unlock (6). Hardware work
 * (filter probes, Find-LLC-Tags, the NIC handler) delays the transaction but is not CPU time: it sleeps.
 */
final class HadesExecutor extends TxnExecutor {
    static final AbortException SELF_SQUASH = AbortException.conflict("hades_self_squash");
    static final AbortException SQUASHED = AbortException.conflict("hades_squashed");
    static final AbortException LOCK_CONFLICT = AbortException.conflict("hades_lock_conflict");
    static final AbortException NACK = AbortException.conflict("hades_nack");
    static final AbortException LOCAL_VALIDATION = AbortException.conflict("hades_local_validation");
    static final AbortException NOT_FOUND = AbortException.conflict("not_found");
    static final AbortException EVICTION = AbortException.conflict("hades_eviction");

    private final HadesProtocol p;
    private final HadesTxn t;
    private final HadesNode home;
    private final HadesStats stats;
    private final SwImplCosts sw;
    private final TupleFetch locator;
    private final RegisteredMemory memory;
    private final boolean hybridMode, oneSidedRead, oneSidedIntend;
    private int[] pending = new int[16];
    private Op[] ops = new Op[8];

    HadesExecutor(CoroutineContext ctx, HadesProtocol p, HadesTxn t, SwImplCosts sw) {
        super(ctx);
        this.p = p;
        this.t = t;
        this.home = p.node(ctx.node);
        this.stats = home.stats;
        this.sw = sw;
        this.locator = new TupleFetch(ctx, p.locate);
        this.memory = ctx.cluster().memory(ctx.node);
        this.hybridMode = p.options.hybrid();
        this.oneSidedRead = p.hybrid.oneSided(Stage.READ);
        this.oneSidedIntend = p.hybrid.oneSided(Stage.VALIDATE);
    }

    @Override
    public void begin(Tx tx) {
        t.begin(tx.id);
        if (t.fallback) stats.fallbackAttempts++;
    }

    private void checkSquash() {
        if (t.squashed()) {
            stats.squashesTaken++;
            t.consecutiveSquashes++;
            stats.aborts[HadesStats.Abort.SQUASHED.ordinal()]++;
            throw SQUASHED;
        }
    }

    private AbortException abortWith(HadesStats.Abort why, AbortException e) {
        stats.aborts[why.ordinal()]++;
        if (why != HadesStats.Abort.NOT_FOUND) t.consecutiveSquashes++;
        return e;
    }

    // ---------------------------------------------------------------- execution

    @Override
    public void fetch(Tx tx, int from, int to) {
        long st = ctx.stageStart();
        ctx.charge((long) (to - from) * ctx.cost.tupleOpNs);
        checkSquash();
        if (t.fallback && oneSidedRead) lockFirst(tx, from, to);
        int n = 0;
        for (int i = from; i < to; i++) {
            Access a = tx.access(i);
            if (a.node == ctx.node) {
                local(a);
            } else {
                t.touch(a.node);
                if (n == pending.length) pending = java.util.Arrays.copyOf(pending, n * 2);
                pending[n++] = i;
            }
        }
        if (hybridMode) sw.settle(ctx);
        remote(tx, from, to, n);
        if (t.fallback) lockFirst(tx, from, to);     // lines whose place only the read told (stale cached locations)
        ctx.stageEnd(Stage.READ, st);
    }

    /**
     * Livelock fallback (after {@code livelock_squashes} squashes in a row): lock the lines of accesses
     * [from, to) in the Locking Buffers of their nodes, in ascending node order, waiting out conflicting
     * holders instead of being squashed, before accessing them. Once every node is locked no other
     * transaction can commit a conflicting write or get past its own lock, so nothing squashes this one.
     * A remote lock is a request to that node's NIC and its reply (the state changes when the request
     * arrives; the request carries the lines, the requester keeps its own record of them, 4b). The places of
     * remote lines come from the one-sided index, so the fallback runs only with one-sided READs (with
     * RPC-bound reads they are known only after reading). Locks taken while holding none go in ascending
     * node order and wait; any taken later (a second fetch round, a stale cached location) give up after a
     * bounded wait, so fallback attempts never deadlock.
     */
    private void lockFirst(Tx tx, int from, int to) {
        boolean ordered = !holdsAny();
        for (int i = from; i < to; i++) {
            Access a = tx.access(i);
            if (a.node == ctx.node) locateLocal(a);
        }
        if (oneSidedRead) locator.locate(tx, from, to);
        for (int y = 0; y < p.nodes(); y++) {
            boolean local = y == ctx.node, any = local, added = false;
            for (int i = from; i < to; i++) {
                Access a = tx.access(i);
                if (a.node != y || a.offset < 0 || a.absent) continue;
                if (!local && !any) t.touch(y);
                any = true;
                added |= local ? addLines(a, t.local.read::add, t.local.write::add) : addLines(a, t.lockedRead(y)::add, t.lockedWrite(y)::add);
            }
            if (any && (added || !(local ? t.local.locked : t.lockedAt(y)))) lockAt(y, ordered);
        }
    }

    private boolean holdsAny() {
        if (t.local.locked) return true;
        for (int k = 0; k < t.touchedCount; k++) if (t.lockedAt(t.touched[k])) return true;
        return false;
    }

    /** Adds an access's read and written lines through {@code read} and {@code write} (true = the line was new); true if any was. */
    private static boolean addLines(Access a, LongPredicate read, LongPredicate write) {
        boolean added = false;
        long first = HadesTuple.firstLine(a.table, a.offset), last = HadesTuple.lastLine(a.table, a.offset);
        if (a.needsValue) for (long l = first; l <= last; l++) added |= read.test(l);
        if (a.write) for (long l = HadesTuple.line(a.table.region(), a.offset + HadesTuple.WID); l <= last; l++) added |= write.test(l);
        return added;
    }

    /**
     * One lock request of the fallback to node {@code y}'s NIC with every line it locks there, and its reply
     * (a one-sided WRITE the NIC acts on, {@link HadesNode#lockRequest}); true if it holds the lock.
     */
    private boolean lockRemote(int y) {
        LineSet reads = t.lockedRead(y), writes = t.lockedWrite(y);
        Op op = p.nic.atNic(ctx.op().write(y, 0, 0, HadesRpc.ITEMS + 8 + 8 * (reads.size() + writes.size())), p.lockAtNic);
        byte[] d = op.data;
        Bytes.putLong(d, HadesRpc.GID, ctx.globalId);
        Bytes.putLong(d, HadesRpc.TXN, t.id);
        Bytes.putLong(d, HadesRpc.COUNT, reads.size());
        Bytes.putLong(d, HadesRpc.ITEMS, writes.size());
        int q = HadesRpc.ITEMS + 8;
        for (int k = 0; k < reads.size(); k++, q += 8) Bytes.putLong(d, q, reads.get(k));
        for (int k = 0; k < writes.size(); k++, q += 8) Bytes.putLong(d, q, writes.get(k));
        post(op);
        ctx.flushAndWait();
        boolean held = op.result == 1;
        ctx.release();
        t.lockedAt(y, held || t.lockedAt(y));
        return held;
    }

    /** Takes (or, held, checks) the fallback's lock at node {@code y}: the local directory's, or by a request to y's NIC. */
    private void lockAt(int y, boolean ordered) {
        boolean remote = y != ctx.node;
        Holder h = t.local;
        for (int tries = 0; ; tries++) {
            boolean ok = remote ? lockRemote(y)
                    : h.locked ? !home.conflicts(h, h.write.exact, h.read.exact) : home.lock(h, h.write.exact, h.read.exact) == HadesNode.Lock.OK;
            checkSquash();
            if (ok) return;
            if (!ordered && tries >= 64) throw abortWith(HadesStats.Abort.LOCK_CONFLICT, LOCK_CONFLICT);
            stats.fallbackLockWaits++;
            ctx.sleep(p.options.stallNs());
            checkSquash();
        }
    }

    private void locateLocal(Access a) {
        if (a.offset >= 0) return;
        Table tb = a.table;
        long off = ctx.cachedLocation(tb, a.key);
        if (off < 0) {
            ctx.charge(ctx.cost.localOpNs);
            off = tb.index.lookupLocal(memory, tb.indexRegion(), tb.id, a.key);
            if (off < 0) throw abortWith(HadesStats.Abort.NOT_FOUND, NOT_FOUND);
            ctx.cache().put(tb.id, a.key, off);
        }
        a.offset = off;
    }

    private void local(Access a) {
        Table tb = a.table;
        locateLocal(a);
        while (true) {
            if (hybridMode) {
                if (!home.localStalls(t, tb, a.offset, a.write)) break;
            } else {
                HadesNode.Access r = home.localAccess(t, tb, a.offset, a.needsValue, a.write);
                if (r == HadesNode.Access.OK) break;
                if (r == HadesNode.Access.SELF_SQUASH) {
                    if (!t.fallback) throw abortWith(HadesStats.Abort.SELF_SQUASH, SELF_SQUASH);
                    home.squashInTheWay(t, tb, a.offset, a.write);
                }
            }
            ctx.sleep(p.options.stallNs());
            checkSquash();
        }
        if (hybridMode) sw.fetched(ctx, a);
        ctx.charge(ctx.cost.localOpNs);
        memory.read(tb.region(), a.offset, a.image, 0, tb.tupleBytes);
        accept(a);
    }

    /**
     * Remote accesses pending[0..n) among [from, to): READs recorded by the target (its NIC, or a core for
     * the RPC half); stalled ones retry after a pause.
     */
    private void remote(Tx tx, int from, int to, int n) {
        while (n > 0) {
            if (oneSidedRead) {
                locator.locate(tx, from, to);
                for (int k = 0; k < n; k++) {
                    if (tx.access(pending[k]).absent) throw abortWith(HadesStats.Abort.NOT_FOUND, NOT_FOUND);
                }
                int nOps = 0;
                for (int k = 0; k < n; k++) {
                    Access a = tx.access(pending[k]);
                    Op op = p.nic.atNic(ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes), p.readAtNic);
                    op.tag = pending[k];
                    op.compare = tx.id;
                    op.value = HadesRpc.readMeta(ctx.globalId, a.table.id, (a.needsValue ? HadesRpc.F_READ : 0)
                            | (a.write ? HadesRpc.F_WRITE : 0) | (t.fallback ? HadesRpc.F_FALLBACK : 0));
                    post(op);
                    nOps = remember(nOps, op);
                }
                ctx.flushAndWait();
                n = 0;
                for (int j = 0; j < nOps; j++) n = collectRead(tx, ops[j], n);
            } else {
                int nOps = readRpcs(tx, n);
                int still = 0;
                for (int j = 0; j < nOps; j++) still = collectRpc(tx, ops[j], n, still);
                System.arraycopy(retry, 0, pending, 0, still);
                n = still;
            }
            ctx.release();
            checkSquash();
            if (n > 0) {
                ctx.sleep(p.options.stallNs());
                checkSquash();
            }
        }
    }

    /** Posts a request of this attempt to another node (4b: a squash tells every node one reached). */
    private void post(Op op) {
        t.reach(op.node);
        ctx.add(op);
    }

    private int remember(int n, Op op) {
        if (n == ops.length) ops = java.util.Arrays.copyOf(ops, n * 2);
        ops[n] = op;
        return n + 1;
    }

    private int collectRead(Tx tx, Op op, int still) {
        Access a = tx.access(op.tag);
        if (op.result == HadesRpc.STALLED) {
            pending[still] = op.tag;
            return still + 1;
        }
        if (Table.keyOf(op.data) != a.key) {
            // a stale cached location: look it up again
            ctx.cache().invalidate(a.table.id, a.key);
            a.offset = -1;
            pending[still] = op.tag;
            return still + 1;
        }
        System.arraycopy(op.data, 0, a.image, 0, a.table.tupleBytes);
        accept(a);
        return still;
    }

    /** One READ RPC per target node with every pending access there; returns the ops. */
    private int readRpcs(Tx tx, int n) {
        int nOps = 0;
        for (int k = 0; k < n; k++) {
            int node = tx.access(pending[k]).node;
            boolean seen = false;
            for (int j = 0; j < nOps; j++) if (ops[j].node == node) { seen = true; break; }
            if (seen) continue;
            int count = 0;
            for (int m = k; m < n; m++) if (tx.access(pending[m]).node == node) count++;
            Op op = ctx.op().rpc(node, p.rpc.readHandler, HadesRpc.ITEMS + count * HadesRpc.I_BYTES);
            byte[] d = op.data;
            Bytes.putLong(d, HadesRpc.GID, ctx.globalId);
            Bytes.putLong(d, HadesRpc.TXN, tx.id);
            Bytes.putLong(d, HadesRpc.COUNT, count);
            int q = HadesRpc.ITEMS;
            for (int m = k; m < n; m++) {
                Access a = tx.access(pending[m]);
                if (a.node != node) continue;
                Bytes.putLong(d, q + HadesRpc.I_TABLE, a.table.id);
                Bytes.putLong(d, q + HadesRpc.I_KEY, a.key);
                Bytes.putLong(d, q + HadesRpc.I_OFFSET, a.offset);
                Bytes.putLong(d, q + HadesRpc.I_FLAGS, (a.needsValue ? HadesRpc.F_READ : 0) | (a.write ? HadesRpc.F_WRITE : 0));
                q += HadesRpc.I_BYTES;
            }
            post(op);
            nOps = remember(nOps, op);
        }
        ctx.flushAndWait();
        return nOps;
    }

    private int[] retry = new int[16];

    /** Scatters one READ RPC's replies: its items are the pending accesses at its node, in order. */
    private int collectRpc(Tx tx, Op op, int n, int still) {
        int r = 0;
        for (int k = 0; k < n; k++) {
            Access a = tx.access(pending[k]);
            if (a.node != op.node) continue;
            long off = Bytes.getLong(op.reply, r + HadesRpc.R_OFFSET);
            if (off < 0) throw abortWith(HadesStats.Abort.NOT_FOUND, NOT_FOUND);
            a.offset = off;
            ctx.cache().put(a.table.id, a.key, off);
            if (Bytes.getLong(op.reply, r + HadesRpc.R_STATUS) == HadesRpc.STALLED) {
                if (still == retry.length) retry = java.util.Arrays.copyOf(retry, still * 2);
                retry[still++] = pending[k];
            } else {
                System.arraycopy(op.reply, r + HadesRpc.R_TUPLE, a.image, 0, a.table.tupleBytes);
                accept(a);
            }
            r += HadesRpc.replyItemBytes(a.table);
        }
        return still;
    }

    private static void accept(Access a) {
        a.version = Bytes.getLong(a.image, HadesTuple.WID);
        a.prevVersion = a.version;
        a.table.recordOf(a.image, a.record);
        a.fetchedRecord();
    }

    // ---------------------------------------------------------------- commit

    @Override
    public void commit(Tx tx) {
        long st = ctx.stageStart();
        checkSquash();
        // an LLC eviction of a speculatively written line squashes its transaction (the cache is not modelled:
        // drawn per attempt with protocol_options.eviction_squash_rate; no draw at all when it is 0)
        double evict = p.options.evictionSquashRate();
        if (evict > 0 && !hybridMode && !t.local.write.isEmpty() && ctx.rng.nextDouble() < evict) {
            throw abortWith(HadesStats.Abort.EVICTION, EVICTION);
        }
        long probes0 = stats.probes;
        long hw = 0;
        if (hybridMode) hw += buildLocalFilters(tx) * p.options.filterOpNs();
        boolean hasLocal = !t.local.read.isEmpty() || !t.local.write.isEmpty();
        if (hasLocal && !t.local.locked) lockLocal();
        if (!t.local.write.isEmpty()) {
            hw += p.options.findTagsNs();
            // the squashes leave once Find-LLC-Tags has listed the written lines (the probes overlap it)
            if (p.probeRemoteFiltersAtCommit()) home.squashRemote(t.local.write.exact, t, ctx.now() + p.options.findTagsNs());
        }
        hw += (stats.probes - probes0) * p.options.filterOpNs();
        if (hw > 0) ctx.sleep(hw);
        checkSquash();
        if (t.touchedCount > 0) intendToCommit(tx);
        checkSquash();
        if (hybridMode) {
            validateLocal(tx);
            sw.settle(ctx);
        }
        t.unsquashable = true;
        // step 4: local updates become non-speculative; step 5: Validation with the data; step 6: local unlock
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!a.write || a.node != ctx.node) continue;
            a.prevVersion = memory.getLong(a.table.region(), a.offset + HadesTuple.WID);
            memory.putLong(a.table.region(), a.offset + HadesTuple.WID, tx.id);
            memory.write(a.table.region(), a.offset + a.table.recordOffset, a.update, 0, a.table.recordBytes);
            if (hybridMode) sw.versionBumped(ctx, a);
        }
        if (hybridMode) sw.settle(ctx);
        else home.untag(t);
        sendValidations(tx);
        home.unlock(t.local);
        t.local.clear();
        t.active = false;
        t.consecutiveSquashes = 0;
        ctx.stageEnd(Stage.VALIDATE, st);
    }

    /** HADES-H step 1: the NIC builds the local filters from the addresses software hands it; returns the inserts. */
    private long buildLocalFilters(Tx tx) {
        long inserts = 0;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.node != ctx.node) continue;
            long first = HadesTuple.firstLine(a.table, a.offset), last = HadesTuple.lastLine(a.table, a.offset);
            for (long l = first; l <= last; l++) {
                if (a.needsValue) { t.local.read.add(l); inserts++; }
                if (a.write) { t.local.write.add(l); inserts++; }
            }
        }
        return inserts;
    }

    /** Step 1: partially lock the local directory; a conflict with a holder squashes this transaction, a full set waits. */
    private void lockLocal() {
        while (true) {
            HadesNode.Lock r = home.lock(t.local, t.local.write.exact, hybridMode ? t.local.read.exact : null);
            if (r == HadesNode.Lock.OK) return;
            if (r == HadesNode.Lock.CONFLICT) throw abortWith(HadesStats.Abort.LOCK_CONFLICT, LOCK_CONFLICT);
            stats.lockWaits++;
            ctx.sleep(p.options.stallNs());
            checkSquash();
        }
    }

    /** Step 3: Intend-to-commit with the written lines to every node involved, then wait for every Ack. */
    private void intendToCommit(Tx tx) {
        int nOps = 0;
        for (int k = 0; k < t.touchedCount; k++) {
            int y = t.touched[k];
            int count = 0;
            for (int i = 0; i < tx.size(); i++) {
                Access a = tx.access(i);
                if (a.write && a.node == y) count += writtenLines(a);
            }
            int len = HadesRpc.ITEMS + 8 * count;
            // one-sided: the core hands the commit to its NIC with one command (doorbell and WQE of the first
            // Intend); the NIC fans it out to the other nodes and collects the Acks (one completion)
            Op op = oneSidedIntend ? p.nic.atNic(ctx.op().write(y, 0, 0, len), p.intendAtNic) : ctx.op().rpc(y, p.rpc.intendHandler, len);
            if (oneSidedIntend && k > 0) p.nic.byNic(op);
            byte[] d = op.data;
            Bytes.putLong(d, HadesRpc.GID, ctx.globalId);
            Bytes.putLong(d, HadesRpc.TXN, tx.id);
            Bytes.putLong(d, HadesRpc.COUNT, count);
            int q = HadesRpc.ITEMS;
            for (int i = 0; i < tx.size(); i++) {
                Access a = tx.access(i);
                if (!a.write || a.node != y) continue;
                long first = HadesTuple.line(a.table.region(), a.offset + HadesTuple.WID), last = HadesTuple.lastLine(a.table, a.offset);
                for (long l = first; l <= last; l++, q += 8) Bytes.putLong(d, q, l);
            }
            post(op);
            nOps = remember(nOps, op);
        }
        ctx.flushAndWait();
        if (oneSidedIntend && p.options.nicHandlerNs() > 0) ctx.sleep(p.options.nicHandlerNs());
        boolean acked = true;
        for (int j = 0; j < nOps; j++) {
            Op op = ops[j];
            long ack = oneSidedIntend ? op.result : Bytes.getLong(op.reply, HadesRpc.R_ACK);
            if (ack != 1) acked = false;
        }
        ctx.release();
        if (!acked) throw abortWith(HadesStats.Abort.NACK, NACK);
    }

    private static int writtenLines(Access a) {
        return (int) (HadesTuple.lastLine(a.table, a.offset) - HadesTuple.line(a.table.region(), a.offset + HadesTuple.WID) + 1);
    }

    /** HADES-H step 4: software re-reads the version of every local record read or written. */
    private void validateLocal(Tx tx) {
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.node != ctx.node) continue;
            sw.validated(ctx);
            if (memory.getLongVolatile(a.table.region(), a.offset + HadesTuple.WID) != a.version) {
                throw abortWith(HadesStats.Abort.LOCAL_VALIDATION, LOCAL_VALIDATION);
            }
        }
    }

    /**
     * Step 5: Validation plus the update data to every node involved; its NIC applies it and unlocks (not
     * awaited). Under the RPC binding of VALIDATE a core of the target does it; the reply is absorbed by
     * this coroutine's next wait (passive).
     */
    private void sendValidations(Tx tx) {
        for (int k = 0; k < t.touchedCount; k++) {
            int y = t.touched[k];
            int len = 0;
            for (int i = 0; i < tx.size(); i++) {
                Access a = tx.access(i);
                if (a.write && a.node == y) len += RemoteEntry.V_TUPLE + HadesTuple.align8(a.table.tupleBytes - HadesTuple.WID);
            }
            // one-sided: the NIC sends it by itself once the Acks are in, the data from its 4b buffer (no core work)
            Op op = oneSidedIntend ? p.nic.byNic(p.nic.atNic(ctx.op().write(y, 0, 0, len), p.validationAtNic).unsignaled())
                    : ctx.op().rpc(y, p.rpc.validationHandler, HadesRpc.V_RECORDS + len);
            byte[] d = op.data;
            int q = 0;
            if (oneSidedIntend) {
                op.compare = tx.id;
            } else {
                Bytes.putLong(d, HadesRpc.V_TXN, tx.id);
                q = HadesRpc.V_RECORDS;
            }
            for (int i = 0; i < tx.size(); i++) {
                Access a = tx.access(i);
                if (!a.write || a.node != y) continue;
                Bytes.putLong(d, q + RemoteEntry.V_TABLE, a.table.id);
                Bytes.putLong(d, q + RemoteEntry.V_OFFSET, a.offset);
                Bytes.putLong(d, q + RemoteEntry.V_TUPLE, tx.id);
                System.arraycopy(a.update, 0, d, q + RemoteEntry.V_TUPLE + 8, a.table.recordBytes);
                q += RemoteEntry.V_TUPLE + HadesTuple.align8(a.table.tupleBytes - HadesTuple.WID);
            }
            stats.validations++;
            ctx.add(op);
        }
        ctx.flush();
    }

    // ---------------------------------------------------------------- squash

    /** Squash: the NIC tells every node a request of the attempt reached (they drop its entry when told); the local state clears at once. */
    @Override
    public void abort(Tx tx) {
        for (int k = 0; k < t.touchedCount; k++) {
            int y = t.touched[k];
            if (t.reached(y)) p.sendRelease(ctx.node, y, ctx.globalId, tx.id, ctx.now());
        }
        home.unlock(t.local);
        if (!hybridMode) home.untag(t);
        t.local.clear();
        t.active = false;
    }
}
