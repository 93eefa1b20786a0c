package org.rccj.framework.log;

import java.util.function.ToIntBiFunction;
import org.rccj.framework.api.ClusterShape;
import org.rccj.framework.api.CommitLog;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcHandler;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.api.Stage;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.Op;

/**
 * The LOG stage shared by every protocol: before commit, a coordinator writes a redo entry (its write
 * set) to the log rings of the backups of every partition the transaction writes and of its own node's
 * partition (the artifact's {@code log_remote}: {@code add_backup} per written partition, then "add local
 * server"), each node once — either with one-sided WRITEs or by an RPC per backup whose handler copies the
 * entry. Partition p's {@code replication - 1} backups are the nodes after it ({@link BackupRings#backup}).
 * Every node hosts one ring per (coordinator node, coordinator worker), so a writer owns its rings and
 * picks positions itself (one position for all its rings). Entries are not truncated or replayed
 * (recovery is out of scope); the ring wraps.
 *
 * <p>After the entry is in place, a second message goes to the same targets: the artifact's log ack
 * ({@code log_ack}, occ.cc:424-432 and its twins in every protocol; rtx/logger.hpp:55-57), an RPC in both LOG
 * modes whose handler ({@code DefaultLogCleaner::clean_log}, default_log_cleaner_impl.hpp:37-83) applies every
 * item of a partition it backs to its backup store and skips the others; it replies, and is awaited, only
 * without passive ACK. Here the handler charges the CPU of that work ({@code cpu.tuple_op_ns} per applied
 * item, {@code cpu.local_op_ns} per skipped one); RCC-J keeps no backup store, so nothing is written.
 */
public final class CoordinatorLog implements CommitLog {
    public static final int RING_BYTES = 64 * 1024;
    // entry layout
    public static final int ENTRY_TXN = 0, ENTRY_COUNT = 8, ENTRY_BYTES = 16, ENTRY_ITEMS = 24;
    // item layout, followed by the record
    public static final int ITEM_TABLE = 0, ITEM_KEY = 8, ITEM_RECORD = 16;
    /**
     * {@link #ITEM_TABLE} holds the table id (bits 0-15), the record's bytes (bits 16-31, so a reader can step
     * over the record) and the item's partition, i.e. owner node (bits 32-63, for the clean handler).
     */
    private static final int LENGTH_SHIFT = 16, OWNER_SHIFT = 32;
    private static final long FIELD16 = 0xFFFF;
    // RPC request: position in the ring, then the entry
    public static final int REQ_POSITION = 0, REQ_ENTRY = 8;

    private final Fabric fabric;
    private final int region;
    private final int handler, cleanHandler;
    private final int backups;
    private final int threads;
    private final boolean passiveAck;
    private final BackupRings rings;
    /** Per (node, worker): which nodes the entry being appended goes to (used before the worker yields). */
    private final boolean[][][] destinations;
    /** Per (node, worker): the nodes the entry being appended went to, for the clean message. */
    private final int[][][] targets;
    /** Per (node, worker): the next free byte in each backup's ring for that worker's entries (one position for all). */
    private final long[][] positions;
    /** Per serving (node, worker), written by that worker only: log-clean items applied and messages served (tests). */
    private final long[][] cleaned, cleanMessages;

    /**
     * The log of a run of {@code shape} on {@code fabric}: registers its region on every node and its RPC handler
     * (the append and the clean handler) through {@code register} (the cluster's: name, handler -> the handler's id).
     */
    public CoordinatorLog(ClusterShape shape, Fabric fabric, ToIntBiFunction<String, RpcHandler> register) {
        this.fabric = fabric;
        int nodes = fabric.nodes();
        this.threads = fabric.threads();
        this.rings = new BackupRings(nodes, shape.replication(), threads, RING_BYTES);
        this.backups = rings.backups();
        long regionBytes = regionBytes(nodes, threads, shape.replication());
        int r = -1;
        // a ring per coordinator worker of the cluster on every node, of which a run touches a page or a few: sparse
        for (int n = 0; n < nodes; n++) r = fabric.memory(n).registerSparse(REGION, regionBytes);
        this.region = r;
        this.destinations = new boolean[nodes][threads][nodes];
        this.handler = register.applyAsInt("log.append", this::handle);
        this.cleanHandler = register.applyAsInt("log.clean", this::clean);
        this.passiveAck = shape.passiveAck();
        this.targets = new int[nodes][threads][nodes];
        this.positions = new long[nodes][threads];
        this.cleaned = new long[nodes][threads];
        this.cleanMessages = new long[nodes][threads];
    }

    /** The name of the log's region (registered sparse: a run touches a page or a few of each ring). */
    public static final String REGION = "log";

    /** Bytes of the log region on every node: a ring per (coordinator node, worker), or a placeholder word without backups. */
    public static long regionBytes(int nodes, int threads, int replication) {
        return replication <= 1 ? 8 : (long) nodes * threads * RING_BYTES;
    }

    /** Offset, on any node, of the ring that worker {@code worker} of coordinator node {@code source} appends to. */
    private long ringOffset(int source, int worker) { return ((long) source * threads + worker) * RING_BYTES; }

    /** Bytes of the entry for a transaction's write set. */
    static int entryBytes(Tx tx) {
        int b = ENTRY_ITEMS;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.write) b += ITEM_RECORD + Bytes.align8(a.table.recordBytes);
        }
        return b;
    }

    /** Encodes the redo entry at {@code dst[off..)}. */
    static void encode(Tx tx, byte[] dst, int off, int bytes) {
        int count = 0;
        int p = off + ENTRY_ITEMS;
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (!a.write) continue;
            Bytes.putLong(dst, p + ITEM_TABLE, a.table.id | (long) a.table.recordBytes << LENGTH_SHIFT | (long) a.node << OWNER_SHIFT);
            Bytes.putLong(dst, p + ITEM_KEY, a.key);
            System.arraycopy(a.update, 0, dst, p + ITEM_RECORD, a.table.recordBytes);
            p += ITEM_RECORD + Bytes.align8(a.table.recordBytes);
            count++;
        }
        Bytes.putLong(dst, off + ENTRY_TXN, tx.id);
        Bytes.putLong(dst, off + ENTRY_COUNT, count);
        Bytes.putLong(dst, off + ENTRY_BYTES, bytes);
    }

    /**
     * Runs the LOG stage for {@code tx}: returns once every backup holds the entry and, with {@code clean}, the
     * log-clean message has gone to the same targets (and been answered, without passive ACK). DrTM's path
     * sends no clean message: the artifact's {@code RemoteSet::log_remote} (src/db/remote_set.cc:197-230, branch
     * hybrid-cc), which its {@code DBTX} calls (src/db/txs/dbtx.cc:1055), has its {@code log_ack} commented out.
     */
    @Override
    public void append(CoroutineContext ctx, Tx tx, boolean oneSided, boolean clean) {
        if (backups == 0 || tx.readOnly()) return;
        CostProfile cost = ctx.cost;
        if (cost.fwWriteItemNs > 0) {
            // the artifact's prepare_write_contents copies every written value, log_remote builds its std::set of targets
            int writes = 0;
            for (int i = 0; i < tx.size(); i++) if (tx.access(i).write) writes++;
            ctx.charge(writes * cost.fwWriteItemNs);
        }
        int bytes = entryBytes(tx);
        if (bytes > RING_BYTES) throw new IllegalStateException("log entry of " + bytes + " bytes exceeds the ring");
        int worker = ctx.worker().index;
        long[] position = positions[ctx.node];
        long pos = position[worker];
        if (pos + bytes > RING_BYTES) pos = 0;
        position[worker] = pos + bytes;
        boolean[] to = destinations[ctx.node][worker];
        addBackups(to, ctx.node);
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            if (a.write) addBackups(to, a.node);
        }
        long at = ringOffset(ctx.node, worker) + pos;
        int[] sent = targets[ctx.node][worker];
        int nSent = 0, off = oneSided ? 0 : REQ_ENTRY;
        Op first = null;
        for (int node = 0; node < to.length; node++) {
            if (!to[node]) continue;
            to[node] = false;
            sent[nSent++] = node;
            Op op = ctx.op();
            if (oneSided) {
                op.write(node, region, at, bytes);
            } else {
                op.rpc(node, handler, REQ_ENTRY + bytes);
                Bytes.putLong(op.data, REQ_POSITION, at);
            }
            first = entry(tx, op, off, bytes, first);
            ctx.add(op);
        }
        ctx.flushAndWait();
        ctx.release();
        ctx.stageCut(Stage.LOG);    // stage_timers: artifact: the artifact's END(log) is here, before the log-ack (nowait_rdma.cc:530-546)
        if (!clean) return;
        if (cost.fwLogCopyNs > 0) ctx.charge(cost.fwLogCopyNs);   // the log buffer copied again for the log-ack (nowait_rdma.cc:541)
        // the log ack / clean message to the same targets: the entry's items, applied where backed
        boolean passive = passiveAck && ctx.passiveRpc();
        first = null;
        for (int k = 0; k < nSent; k++) {
            Op op = ctx.op().rpc(sent[k], cleanHandler, bytes);
            first = entry(tx, op, 0, bytes, first);
            ctx.add(passive ? op.unsignaled() : op);
        }
        if (passive) ctx.flush();
        else ctx.flushAndWait();
        ctx.release();
    }

    /**
     * Puts the entry into {@code op.data} at {@code off}: encoded for the first message of a stage, copied from that
     * one ({@code first}, which has it at the same offset) for the others. Returns the message holding it.
     */
    private static Op entry(Tx tx, Op op, int off, int bytes, Op first) {
        if (first == null) {
            encode(tx, op.data, off, bytes);
            return op;
        }
        System.arraycopy(first.data, off, op.data, off, bytes);
        return first;
    }

    private void addBackups(boolean[] to, int partition) {
        for (int b = 1; b <= backups; b++) to[rings.backup(partition, b)] = true;
    }

    private void handle(RpcWorker w, Op call) {
        long at = Bytes.getLong(call.data, REQ_POSITION);
        int bytes = call.length - REQ_ENTRY;
        w.charge(w.profile().localOpNs + bytes / 8);
        w.memory.write(region, at, call.data, REQ_ENTRY, bytes);
        call.replyBuffer(0);
        w.reply(call);
    }

    /** The log-clean handler: applies (charges) each item of a partition this node backs, skips the others. */
    private void clean(RpcWorker w, Op call) {
        long applied = 0, skipped = 0;
        int count = (int) Bytes.getLong(call.data, ENTRY_COUNT);
        int p = ENTRY_ITEMS;
        for (int i = 0; i < count; i++) {
            long word = Bytes.getLong(call.data, p + ITEM_TABLE);
            if (backs(w.node, (int) (word >>> OWNER_SHIFT))) applied++; else skipped++;
            p += ITEM_RECORD + Bytes.align8((int) (word >>> LENGTH_SHIFT & FIELD16));
        }
        cleaned[w.node][w.index] += applied;
        cleanMessages[w.node][w.index]++;
        CostProfile cost = w.profile();
        // per applied item the tuple's lookup and copy (cpu.tuple_op_ns) and the rest of the artifact's clean_log: the
        // backup checks, the CAS lock and its release, the seq stores (framework.clean_item_ns)
        w.charge(applied * (cost.tupleOpNs + cost.fwCleanItemNs) + skipped * cost.localOpNs);
        call.replyBuffer(0);
        w.reply(call);
    }

    /** Log-clean items applied by node {@code node}'s handlers (tests; read after the run). */
    public long cleanedItems(int node) { return java.util.Arrays.stream(cleaned[node]).sum(); }

    /** Log-clean messages node {@code node}'s handlers served (tests; read after the run). */
    public long cleanMessages(int node) { return java.util.Arrays.stream(cleanMessages[node]).sum(); }

    private boolean backs(int node, int partition) {
        for (int b = 1; b <= backups; b++) if (rings.backup(partition, b) == node) return true;
        return false;
    }

    /** Reads back the transaction id of the entry at a ring position on a node (tests). */
    public long entryTxn(int node, int srcNode, int srcWorker, long pos) {
        return fabric.memory(node).getLong(region, ringOffset(srcNode, srcWorker) + pos + ENTRY_TXN);
    }
}
