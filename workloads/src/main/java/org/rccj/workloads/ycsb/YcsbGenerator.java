package org.rccj.workloads.ycsb;

import java.util.SplittableRandom;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.txn.Tx;
import org.rccj.framework.txn.TxnGenerator;
import org.rccj.primitives.Bytes;

import static org.rccj.workloads.ycsb.Ycsb.*;

/** One coroutine's YCSB transactions. Keys and read/write choices are drawn in {@link #next()}, so retries repeat them. */
final class YcsbGenerator implements TxnGenerator {
    private final Ycsb wl;
    private final SplittableRandom rng;
    private final long[] keys;
    private final boolean[] writes;
    private final int[] handles;
    private int writesInTxn;
    /** Writes of this coroutine's committed transactions. */
    long committedWrites;

    YcsbGenerator(Ycsb wl, CoroutineContext ctx) {
        this.wl = wl;
        this.rng = ctx.rng;
        this.node = ctx.node;
        this.nodes = ctx.cluster().nodes();
        keys = new long[wl.opsPerTxn];
        writes = new boolean[wl.opsPerTxn];
        handles = new int[wl.opsPerTxn];
    }

    private final java.util.function.LongSupplier draw = this::draw;
    private final int node, nodes;

    private long key() { return org.rccj.workloads.LocalFraction.pick(wl.localFraction, rng, draw, wl.table, node, nodes); }

    private long draw() {
        if (wl.zipf != null) return wl.zipf.next(rng);
        if (wl.hotKeys >= wl.keys) return rng.nextLong(wl.keys);
        if (rng.nextDouble() < wl.hotProbability) return rng.nextLong(wl.hotKeys);
        return wl.hotKeys + rng.nextLong(wl.keys - wl.hotKeys);
    }

    @Override
    public int next() {
        writesInTxn = 0;
        for (int i = 0; i < keys.length; i++) {
            long k;
            boolean fresh;
            do {
                k = key();
                fresh = true;
                for (int j = 0; j < i; j++) if (keys[j] == k) { fresh = false; break; }
            } while (!fresh);
            keys[i] = k;
            writes[i] = rng.nextDouble() < wl.writeProbability;
            if (writes[i]) writesInTxn++;
        }
        return writesInTxn == 0 ? READ_ONLY : READ_WRITE;
    }

    // replay: per operation its key with the write choice in the top bit (keys are below 2^63)
    private static final long WRITE_BIT = Long.MIN_VALUE;

    @Override
    public int savePick(byte[] dst, int off) {
        for (int i = 0; i < keys.length; i++) Bytes.putLong(dst, off + 8 * i, keys[i] | (writes[i] ? WRITE_BIT : 0));
        return 8 * keys.length;
    }

    @Override
    public void loadPick(int type, byte[] src, int off) {
        writesInTxn = 0;
        for (int i = 0; i < keys.length; i++) {
            long v = Bytes.getLong(src, off + 8 * i);
            keys[i] = v & ~WRITE_BIT;
            writes[i] = v < 0;
            if (writes[i]) writesInTxn++;
        }
    }

    @Override
    public void execute(Tx tx) {
        for (int i = 0; i < keys.length; i++) {
            handles[i] = writes[i] ? tx.readForUpdate(wl.table, keys[i]) : tx.read(wl.table, keys[i]);
        }
        tx.fetch();
        if (wl.computeNs > 0) tx.compute(wl.computeNs);
        for (int i = 0; i < keys.length; i++) {
            if (!writes[i]) continue;
            int h = handles[i];
            long c = tx.get(h, COUNTER) + 1;
            tx.put(h, COUNTER, c);
            long v = stamp(wl.seed, keys[i], c);
            for (int w = 0; w < wl.payloadWords; w++) tx.put(h, PAYLOAD + w * WORD, v);
        }
    }

    @Override
    public void committed(Tx tx) { committedWrites += writesInTxn; }
}
