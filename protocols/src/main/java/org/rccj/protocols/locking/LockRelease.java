package org.rccj.protocols.locking;

import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.stage.WriteStage;
import org.rccj.framework.store.Table;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Op;

/**
 * RELEASE stage of a locking protocol: clear the lock word of every tuple the attempt still holds (after a
 * commit its read locks, the commit having released its writes; after an abort all). One-sided: a WRITE of 0
 * per tuple (signaled), or an FAA of -1 for a shared read lock ({@link ReadLocks}). RPC: the handler clears the
 * same word (or decrements it). A
 * protocol with more per-tuple state to undo (WAITDIE's waiter mark) extends both halves: its extra
 * one-sided op goes before the unlock in the same batch, its handler undoes it before the unlock and may
 * replace the unlock (to hand the lock on to a waiting request).
 *
 * <p>RPC item: ARG0 = the owner value the attempt used, ARG1 = {@link #HOLDS_LOCK} | {@link #SHARED} | {@link #EXTRA}.
 */
public class LockRelease extends WriteStage {
    /** Item flags. */
    public static final long HOLDS_LOCK = 1, EXTRA = 2, SHARED = 4;

    /** The RPC half; subclasses add work before/after the unlock. */
    public static class Rpc extends TupleRpc {
        protected final LockWords words;

        public Rpc(ClusterView c, String name, LockWords words) {
            super(c, name);
            this.words = words;
        }

        @Override
        protected final void serve(RpcWorker w, Table t, Request q, Reply out) {
            long off = q.offset(), owner = q.arg0(), flags = q.arg1();
            release(w, t, off, owner, flags);
        }

        /** Releases one item (also the last step of a commit item, {@link LockCommit}). */
        final void release(RpcWorker w, Table t, long off, long owner, long flags) {
            if ((flags & EXTRA) != 0) beforeUnlock(w, t, off, owner);
            if ((flags & SHARED) != 0) unlockShared(w, t, off);
            else if ((flags & HOLDS_LOCK) != 0) unlock(w, t, off);
        }

        /** The protocol's extra state of the tuple is undone (only for items sent with {@link #EXTRA}). */
        protected void beforeUnlock(RpcWorker w, Table t, long off, long owner) {}

        /** Takes one reader off a shared lock (FAA -1; a protocol with a wait queue also hands the lock on here). */
        protected void unlockShared(RpcWorker w, Table t, long off) { w.memory.faa(t.region(), off + words.lock, -1); }

        /** Clears the tuple's lock word (a protocol with a wait queue also hands the lock on here). */
        protected void unlock(RpcWorker w, Table t, long off) {
            w.memory.putLongVolatile(t.region(), off + words.lock, 0);
        }
    }

    protected final LockWords words;
    private final ReadLocks readLocks;

    public LockRelease(CoroutineContext ctx, LockWords words, Rpc rpc) { this(ctx, words, rpc, ReadLocks.EXCLUSIVE); }

    /** With shared read locks a read access's lock is released by an FAA of -1 (one-sided or in the handler). */
    public LockRelease(CoroutineContext ctx, LockWords words, Rpc rpc, ReadLocks readLocks) {
        super(ctx, rpc);
        this.words = words;
        this.readLocks = readLocks;
    }

    /** The value this attempt put in lock words (sent with RPC items for the protocol's extra work). */
    protected long owner() { return 0; }

    /** Whether the access has extra per-tuple state to undo (default: none). */
    protected boolean hasExtra(Access a) { return false; }

    /** One-sided: the op that undoes the extra state, queued before the unlock of the same tuple. */
    protected Op extraOp(Access a, boolean last) { throw new UnsupportedOperationException(); }

    /** The extra state of the access is undone. */
    protected void clearExtra(Access a) {}

    @Override protected final boolean selected(Access a) { return a.locked || hasExtra(a); }

    @Override
    protected final void post(Access a, int i) {
        if (hasExtra(a)) add(extraOp(a, !a.locked));
        if (!a.locked) return;
        if (readLocks.shared(a.write)) add(ctx.op().faa(a.node, a.table.region(), a.offset + words.lock, -1));
        else add(ctx.op().writeLong(a.node, a.table.region(), a.offset + words.lock, 0));
    }

    @Override protected final long arg0(Access a) { return owner(); }
    @Override
    protected final long arg1(Access a) {
        return (a.locked ? HOLDS_LOCK : 0) | (a.locked && readLocks.shared(a.write) ? SHARED : 0) | (hasExtra(a) ? EXTRA : 0);
    }

    @Override
    protected final void done(Access a) {
        a.locked = false;
        clearExtra(a);
    }
}
