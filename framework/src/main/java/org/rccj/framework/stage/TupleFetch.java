package org.rccj.framework.stage;

import java.lang.invoke.VarHandle;
import java.util.Arrays;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.store.HashIndex;
import org.rccj.framework.store.LocationCache;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;

/**
 * Brings tuple images (header words and record) of a transaction's accesses into {@link Access#image}:
 * one-sided (location cache, else bucket READs of the hash index, then one tuple READ) or two-sided
 * (one batched RPC per node whose handler looks the key up and returns the image). Both refill the
 * location cache. Afterwards every selected access has {@code offset} and {@code image}, or is
 * {@link Access#absent}. Interpreting the header is the protocol's business.
 */
public final class TupleFetch {
    /** Shared RPC half, registered once per cluster. */
    public static final class Rpc extends TupleRpc {
        public Rpc(ClusterView cluster) { super(cluster, "tuple.read"); }

        @Override protected int replyPayload(Table t) { return t.tupleBytes; }

        @Override
        protected void serve(RpcWorker w, Table t, Request q, Reply out) {
            long key = q.key();
            long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            out.r0(off);
            if (off >= 0) {
                w.memory.read(t.region(), off, out.data(), out.payload(), t.tupleBytes);
                VarHandle.acquireFence();
            }
        }
    }

    private final CoroutineContext ctx;
    private final Rpc rpc;
    private final TupleRpc.Caller caller = new TupleRpc.Caller();
    private Op[] ops = new Op[16];
    private int[] opAccess = new int[16];
    private boolean onlyNeeded, skipWrites;

    private final TupleRpc.Items items = new TupleRpc.Items() {
        @Override public boolean selected(Access a) { return select(a); }

        @Override public void result(Access a, long r0, long r1, byte[] reply, int payload) { located(ctx, a, r0, reply, payload); }
    };

    /**
     * Caller half of an RPC reply item that located a tuple and copied its image: records the location (and
     * refills the location cache) and the image, or marks the access absent ({@code offset} &lt; 0).
     */
    public static void located(CoroutineContext ctx, Access a, long offset, byte[] reply, int payload) {
        if (offset < 0) {
            a.absent = true;
            return;
        }
        a.offset = offset;
        ctx.cache().put(a.table.id, a.key, offset);
        System.arraycopy(reply, payload, a.image, 0, a.table.tupleBytes);
    }

    public TupleFetch(CoroutineContext ctx, Rpc rpc) {
        this.ctx = ctx;
        this.rpc = rpc;
    }

    private boolean select(Access a) { return (!onlyNeeded || a.needsValue) && (!skipWrites || !a.write); }

    /**
     * Fetches accesses {@code [from, to)}.
     * @param onlyNeeded skip blind writes (their location is then found by {@link #locate})
     */
    public void fetch(Tx tx, int from, int to, boolean oneSided, boolean onlyNeeded) { fetch(tx, from, to, oneSided, onlyNeeded, false); }

    /**
     * Fetches accesses {@code [from, to)}.
     * @param onlyNeeded skip blind writes (their location is then found by {@link #locate})
     * @param skipWrites skip every write (a protocol that locks them at access time fetches them itself)
     */
    public void fetch(Tx tx, int from, int to, boolean oneSided, boolean onlyNeeded, boolean skipWrites) {
        this.onlyNeeded = onlyNeeded;
        this.skipWrites = skipWrites;
        if (!oneSided) {
            rpc.call(ctx, caller, tx, from, to, items);
            ctx.release();
            return;
        }
        while (true) {
            locate(tx, from, to, skipWrites);
            int n = 0;
            for (int i = from; i < to; i++) {
                Access a = tx.access(i);
                if (!select(a) || a.absent) continue;
                Op op = ctx.op().read(a.node, a.table.region(), a.offset, a.table.tupleBytes);
                n = remember(n, op, i);
                ctx.add(op);
            }
            ctx.flushAndWait();
            boolean stale = false;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(opAccess[k]);
                Op op = ops[k];
                if (Table.keyOf(op.data) != a.key) {
                    // the cached location no longer holds this key: forget it and look it up again
                    ctx.cache().invalidate(a.table.id, a.key);
                    a.offset = -1;
                    stale = true;
                    continue;
                }
                System.arraycopy(op.data, 0, a.image, 0, a.table.tupleBytes);
            }
            ctx.release();
            if (!stale) return;
        }
    }

    private int remember(int n, Op op, int access) {
        if (n == ops.length) {
            ops = Arrays.copyOf(ops, n * 2);
            opAccess = Arrays.copyOf(opAccess, n * 2);
        }
        ops[n] = op;
        opAccess[n] = access;
        return n + 1;
    }

    /** One-sided location of accesses without an offset: cache, else bucket READs until found or absent. */
    public void locate(Tx tx, int from, int to) { locate(tx, from, to, false); }

    private void locate(Tx tx, int from, int to, boolean skipWrites) {
        LocationCache cache = ctx.cache();
        int n = 0;
        for (int i = from; i < to; i++) {
            Access a = tx.access(i);
            if (a.offset >= 0 || a.absent || (skipWrites && a.write)) continue;
            long off = ctx.cachedLocation(a.table, a.key);
            if (off >= 0) {
                a.offset = off;
                continue;
            }
            Op op = ctx.op().read(a.node, a.table.indexRegion(), a.table.index.bucketOffset(a.table.id, a.key), HashIndex.BUCKET_BYTES);
            n = remember(n, op, i);
            ctx.add(op);
        }
        while (n > 0) {
            ctx.flushAndWait();
            int next = 0;
            for (int k = 0; k < n; k++) {
                Access a = tx.access(opAccess[k]);
                long r = HashIndex.scan(ops[k].data, a.key);
                if (r >= 0) {
                    a.offset = r;
                    cache.put(a.table.id, a.key, r);
                } else if (r == HashIndex.NOT_FOUND) {
                    a.absent = true;
                } else {
                    Op op = ctx.op().read(a.node, a.table.indexRegion(), -2 - r, HashIndex.BUCKET_BYTES);
                    ops[next] = op;
                    opAccess[next++] = opAccess[k];
                    ctx.add(op);
                }
            }
            n = next;
        }
    }
}
