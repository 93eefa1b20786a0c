package org.rccj.protocols.hades;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * Message layouts of HADES's requests and the RPC halves of its two bindable stages: a remote READ and an
 * Intend-to-commit served by a worker core of the target (the same {@link HadesNode} decisions the NIC takes
 * in the one-sided halves, but paying the target's CPU: HADES without its NIC handler).
 *
 * <p>Both requests start with GID (the caller coroutine's global id), TXN (the attempt) and COUNT.
 * READ items: TABLE, KEY, OFFSET (-1 = look up), FLAGS (bit 0 read, bit 1 write); reply items: R_OFFSET
 * (-1 = absent), R_STATUS (0 served, 1 stalled), then the tuple (8-aligned). INTEND: COUNT line ids;
 * reply: R_ACK (1 = Ack). A one-sided Intend-to-commit carries the same request as the payload of a WRITE
 * the target NIC acts on; a one-sided READ names its attempt in the op's {@code compare} and its access in
 * {@code value} ({@link #readMeta}); a Validation names its attempt (one-sided: in {@code compare}). A
 * livelock fallback's lock request: GID, TXN, COUNT read lines, then at ITEMS the count of written lines and
 * from ITEMS + 8 the read lines, then the written ones.
 */
final class HadesRpc {
    static final int GID = 0, TXN = 8, COUNT = 16, ITEMS = 24;
    static final int I_TABLE = 0, I_KEY = 8, I_OFFSET = 16, I_FLAGS = 24, I_BYTES = 32;
    static final int R_OFFSET = 0, R_STATUS = 8, R_TUPLE = 16;
    static final int R_ACK = 0;
    static final long F_READ = 1, F_WRITE = 2, F_FALLBACK = 4;
    private static final int META_TABLE_SHIFT = 3, META_GID_SHIFT = 24;
    static final long SERVED = 0, STALLED = 1;

    private final HadesProtocol p;
    final int readHandler, intendHandler, validationHandler;
    /** Validation request: TXN (the attempt), then the records as in {@link RemoteEntry}. */
    static final int V_TXN = 0, V_RECORDS = 8;

    HadesRpc(HadesProtocol p, ClusterView c) {
        this.p = p;
        this.readHandler = c.register("hades.read", this::serveRead);
        this.intendHandler = c.register("hades.intend", this::serveIntend);
        this.validationHandler = c.register("hades.validation", this::serveValidation);
    }

    static int align8(int n) { return (n + 7) & ~7; }

    static int replyItemBytes(Table t) { return R_TUPLE + align8(t.tupleBytes); }

    /** A one-sided READ's access, in its op's {@code value}: the coroutine, the table, the F_ flags. */
    static long readMeta(int gid, int table, long flags) {
        return ((long) gid << META_GID_SHIFT) | ((long) table << META_TABLE_SHIFT) | flags;
    }

    static int gidOf(long meta) { return (int) (meta >>> META_GID_SHIFT); }
    static int tableOf(long meta) { return (int) ((meta >>> META_TABLE_SHIFT) & ((1 << (META_GID_SHIFT - META_TABLE_SHIFT)) - 1)); }

    private void serveRead(RpcWorker w, Op call) {
        byte[] d = call.data;
        int n = (int) Bytes.getLong(d, COUNT);
        HadesNode node = p.node(w.node);
        RemoteEntry e = node.entry(Bytes.getLong(d, TXN), (int) Bytes.getLong(d, GID));
        int bytes = 0;
        for (int i = 0; i < n; i++) bytes += replyItemBytes(p.cluster.store.table((int) Bytes.getLong(d, ITEMS + i * I_BYTES + I_TABLE)));
        byte[] reply = call.replyBuffer(bytes);
        int r = 0;
        long tupleCost = w.profile().tupleOpNs;
        for (int i = 0; i < n; i++) {
            int q = ITEMS + i * I_BYTES;
            Table tb = p.cluster.store.table((int) Bytes.getLong(d, q + I_TABLE));
            w.charge(tupleCost);
            long off = Bytes.getLong(d, q + I_OFFSET);
            if (off < 0) off = tb.index.lookupLocal(w.memory, tb.indexRegion(), tb.id, Bytes.getLong(d, q + I_KEY));
            Bytes.putLong(reply, r + R_OFFSET, off);
            long flags = Bytes.getLong(d, q + I_FLAGS);
            boolean served = off < 0 || node.remoteRead(e, tb, off, (flags & F_READ) != 0, (flags & F_WRITE) != 0, w.memory, reply, r + R_TUPLE);
            Bytes.putLong(reply, r + R_STATUS, served ? SERVED : STALLED);
            r += replyItemBytes(tb);
        }
        w.reply(call);
    }

    private void serveValidation(RpcWorker w, Op call) {
        w.charge((long) Math.max(1, call.length / 64) * w.profile().tupleOpNs);
        p.node(w.node).validate(Bytes.getLong(call.data, V_TXN), call.data, V_RECORDS, call.length, w.memory);
        call.replyBuffer(0);
        w.reply(call);
    }

    private void serveIntend(RpcWorker w, Op call) {
        int n = (int) Bytes.getLong(call.data, COUNT);
        w.charge((long) (n + 1) * w.profile().tupleOpNs);
        boolean ack = p.node(w.node).intend(call.data, w.now());
        Bytes.putLong(call.replyBuffer(8), R_ACK, ack ? 1 : 0);
        w.reply(call);
    }
}
