package org.rccj.protocols.locking;

import java.util.Arrays;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.stage.TupleFetch;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * One round of one-sided lock attempts (the LOCK stage of NOWAIT and WAITDIE): each access is located
 * (location cache, else index READs), then gets a CAS of its lock word from 0 to the owner value followed
 * by a READ of the whole tuple, both in the same doorbell batch of its node (executed in order, so the
 * READ sees the tuple after the CAS; only the READ is signaled). The image is meaningful only if the CAS
 * found 0. Afterwards {@link #found(int)} is what the CAS of attempt k found and the access's
 * {@code image} holds the tuple; absent keys are flagged {@code absent} and get no ops.
 */
public final class OneSidedLockRound {
    private final CoroutineContext ctx;
    private final LockWords words;
    private final TupleFetch locator;
    private Op[] cas = new Op[8], read = new Op[8];
    private long[] found = new long[8];

    public OneSidedLockRound(CoroutineContext ctx, LockWords words, TupleFetch locator) {
        this.ctx = ctx;
        this.words = words;
        this.locator = locator;
    }

    /**
     * Attempts the accesses {@code pending[0..n)} (indices into {@code tx}, all within {@code [from, to)}).
     * @param value the owner value to install in the lock word
     */
    public void run(Tx tx, int from, int to, int[] pending, int n, long value) { run(tx, from, to, pending, n, null, value); }

    /**
     * As {@link #run(Tx, int, int, int[], int, long)}, but attempt k with {@code shared[k] >= 0} asks for a shared
     * read lock ({@link ReadLocks}): its CAS expects that reader count and stores it + 1; the others CAS 0 to
     * {@code value}.
     * @param shared per attempt the reader count expected, or -1 for an exclusive lock; null for none
     */
    public void run(Tx tx, int from, int to, int[] pending, int n, long[] shared, long value) {
        if (n > cas.length) {
            int len = Math.max(n, cas.length * 2);
            cas = Arrays.copyOf(cas, len);
            read = Arrays.copyOf(read, len);
            found = Arrays.copyOf(found, len);
        }
        locator.locate(tx, from, to);
        for (int k = 0; k < n; k++) {
            Access a = tx.access(pending[k]);
            if (a.absent) continue;
            Table t = a.table;
            long expect = shared != null && shared[k] >= 0 ? shared[k] : 0;
            long v = shared != null && shared[k] >= 0 ? expect + 1 : value;
            Op c = ctx.op().cas(a.node, t.region(), a.offset + words.lock, expect, v).unsignaled();
            Op r = ctx.op().read(a.node, t.region(), a.offset, t.tupleBytes);
            cas[k] = c;
            read[k] = r;
            ctx.add(c);
            ctx.add(r);
        }
        ctx.flushAndWait();
        for (int k = 0; k < n; k++) {
            Access a = tx.access(pending[k]);
            if (a.absent) {
                found[k] = -1;
                continue;
            }
            LockWords.takeImage(a, read[k].data);
            found[k] = cas[k].result;
        }
        ctx.release();
    }

    /** What the CAS of attempt {@code k} found (0 = the lock was taken), -1 if the key is absent. */
    public long found(int k) { return found[k]; }
}
