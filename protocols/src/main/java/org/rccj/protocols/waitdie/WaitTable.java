package org.rccj.protocols.waitdie;

import java.util.Arrays;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.stage.TupleRpc;
import org.rccj.framework.store.Store;
import org.rccj.framework.store.Table;
import org.rccj.primitives.Op;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.protocols.locking.ReadLocks;

/**
 * One node's lock wait queue for RPC LOCK requests (WAITDIE's handler side). A request whose items cannot
 * all be decided at once is parked: its reply is deferred (the handler keeps the {@link Op}) and each
 * waiting item becomes a {@link Waiter} on its tuple. A waiter is re-attempted
 * <ul>
 * <li>when an RPC RELEASE clears the tuple's lock on this node ({@link #release}): waiters of the tuple
 * are attempted oldest first, so the oldest gets the lock and the younger ones, which now face an older
 * holder, die;</li>
 * <li>by its worker's poller ({@link #poll}) when RELEASE is one-sided: it clears the lock word without any
 * handler running.</li>
 * </ul>
 * When an item dies its request's other waiting items are cancelled, and the request is answered once
 * every item is decided. Parked waiters mark the tuple's waiter word like one-sided waiters do.
 *
 * <p>Handlers of one node run on several threads on the {@code local} fabric: every method that touches the
 * queue is {@code synchronized} and none of them yields; replies are sent after the monitor is left
 * ({@link #sendReplies}). A request is parked only before the run's end on its worker's clock, and a
 * worker's poller returns only after the end once nothing it parked is left, so no request waits forever.
 */
final class WaitTable {
    /** One waiting item of a parked request. */
    static final class Waiter {
        Table table;
        long offset, ts, since;
        /** How it locks ({@link WaitDieTuple#MODE_EXCLUSIVE} etc.). */
        long mode;
        Parked request;
        /** Offset of this item in the request's reply. */
        int reply;
        /** Worker (index) whose handler parked it: its poller looks after it. */
        int worker;
        boolean marked, active;
    }

    /** A parked request: the deferred call and how many of its items are still waiting. */
    static final class Parked {
        Op call;
        int unresolved;
    }

    private static final int BY_RELEASE = 0, BY_POLL = 1;

    private final Store store;
    private final RegisteredMemory memory;
    private final boolean marks;
    /**
     * Gives the measured interval [measureStart, endTime) on the workers' clocks (fixed only when the run
     * starts, so it is read when needed); no request parks after its end.
     */
    CoroutineContext window;

    private long endTime() { return window == null ? Long.MAX_VALUE : window.endTime(); }
    private Waiter[] waiting = new Waiter[16];
    private int size;
    private final int[] parkedBy;
    private Waiter[] freeWaiters = new Waiter[16];
    private int freeWaiterCount;
    private Parked[] freeParked = new Parked[16];
    private int freeParkedCount;
    // per worker scratch (each worker index is one thread): replies to send, waiters of one tuple, tuples to poll
    private final Op[][] replies;
    private final int[] replyCount;
    private final Waiter[][] scratch;
    private final long[][] pollOffsets;
    private final Table[][] pollTables;
    // figures (under the monitor)
    long parks, grantsOnRelease, grantsByPoll, parkedDied, maxWaitNs;

    WaitTable(Store store, RegisteredMemory memory, int workers, boolean marks) {
        this.store = store;
        this.memory = memory;
        this.marks = marks;
        parkedBy = new int[workers];
        replies = new Op[workers][8];
        replyCount = new int[workers];
        scratch = new Waiter[workers][8];
        pollOffsets = new long[workers][8];
        pollTables = new Table[workers][8];
    }

    /**
     * Items worker {@code worker}'s handler parked that still wait (the artifact's per-worker wait list). Read without the
     * monitor by the simulator, on the node's own thread (no other thread touches a node's table there).
     */
    int parkedBy(int worker) { return parkedBy[worker]; }

    private boolean measuring(long now) { return window != null && now >= window.measureStart() && now < window.endTime(); }

    /**
     * Handler of an RPC LOCK request: attempts every item; if some must wait and none failed, parks them.
     * The reply buffer must already be sized (R0, R1 and the tuple image per item).
     * @return true if the reply can be sent now, false if it is deferred
     */
    synchronized boolean lock(RpcWorker w, Op call, TupleRpc.Request items, TupleRpc.Reply out) {
        byte[] reply = call.reply;
        int count = items.count();
        long now = w.now();
        boolean ended = now >= endTime();
        long tupleCost = w.profile().tupleOpNs;
        Waiter[] tmp = scratch(w.index, count);
        int waits = 0;
        boolean failed = false;
        for (int i = 0; i < count; i++) {
            Table t = store.table(items.table());
            long key = items.key(), ts = items.arg0(), mode = items.arg1();
            int r = out.at();
            w.charge(tupleCost);
            long off = t.index.lookupLocal(w.memory, t.indexRegion(), t.id, key);
            out.r0(off);
            if (off < 0) {
                out.r1(WaitDieTuple.ABSENT);
                failed = true;
            } else {
                int o = attempt(w, t, off, ts, mode, ended, reply, r, false);
                if (o == WaitDieTuple.WAIT) {
                    Waiter e = newWaiter();
                    e.table = t;
                    e.offset = off;
                    e.ts = ts;
                    e.mode = mode;
                    e.reply = r;
                    e.worker = w.index;
                    e.since = now;
                    tmp[waits++] = e;
                } else if (o != WaitDieTuple.GRANTED) {
                    failed = true;
                }
            }
            items.next(0);
            out.next(t.tupleBytes);
        }
        if (waits == 0) return true;
        if (failed) {
            // the request aborts anyway: its waiting items give up without waiting
            for (int k = 0; k < waits; k++) {
                TupleRpc.Reply.r1(reply, tmp[k].reply, WaitDieTuple.CANCELLED);
                free(tmp[k]);
            }
            return true;
        }
        Parked req = newParked();
        req.call = call;
        req.unresolved = waits;
        for (int k = 0; k < waits; k++) {
            Waiter e = tmp[k];
            e.request = req;
            e.active = true;
            mark(e);
            add(e);
        }
        parkedBy[w.index] += waits;
        if (measuring(now)) parks += waits;
        return false;
    }

    /**
     * One attempt of the wait-die rule on this node's memory with the one-sided half's atomics: CAS the lock
     * word, read the waiter word, {@link WaitDieTuple#decide}; a granted item gets the image, a lock taken
     * from under an older waiter is given back at once.
     */
    private int attempt(RpcWorker w, Table t, long off, long ts, long mode, boolean ended, byte[] reply, int r, boolean marked) {
        int region = t.region();
        long lock = off + WaitDieTuple.LOCK;
        int o;
        if (mode == WaitDieTuple.MODE_EXCLUSIVE) {
            long found = memory.cas(region, lock, 0, ts);
            o = WaitDieTuple.decide(ts, found, memory.getLongVolatile(region, off + WaitDieTuple.WAITER), ended);
        } else {
            // shared mode: a read CASes the reader count up (again while other readers win), a write 0 -> WRITER | ts
            boolean write = mode == WaitDieTuple.MODE_SHARED_WRITE;
            long expected = 0;
            o = WaitDieTuple.RETRY;
            for (int round = 0; o == WaitDieTuple.RETRY && round < ReadLocks.MAX_ROUNDS; round++) {
                long found = memory.cas(region, lock, expected, write ? ReadLocks.WRITER | ts : expected + 1);
                o = WaitDieTuple.decideShared(write, ts, expected, found, memory.getLongVolatile(region, off + WaitDieTuple.WAITER), ended);
                expected = found;
            }
            if (o == WaitDieTuple.RETRY) o = WaitDieTuple.DIE;
        }
        if (o == WaitDieTuple.GRANTED) {
            WaitDieTuple.WORDS.copyImage(w, t, off, reply, TupleRpc.Reply.payload(r));
        } else if (o == WaitDieTuple.YIELD) {
            if (mode == WaitDieTuple.MODE_SHARED_READ) memory.faa(region, lock, -1);
            else memory.putLongVolatile(region, lock, 0);
        }
        TupleRpc.Reply.r1(reply, r, o | (o == WaitDieTuple.GRANTED && marked ? WaitDieTuple.MARKED_FLAG : 0));
        return o;
    }

    /** Puts the waiter's timestamp in the tuple's waiter word unless an older waiter is there (CAS loop). */
    private void mark(Waiter e) {
        if (!marks) return;
        int region = e.table.region();
        long at = e.offset + WaitDieTuple.WAITER;
        while (true) {
            long cur = memory.getLongVolatile(region, at);
            if (!WaitDieTuple.shouldMark(e.ts, cur)) return;
            if (memory.cas(region, at, cur, e.ts) == cur) {
                e.marked = true;
                return;
            }
        }
    }

    private void unmark(Waiter e) {
        if (e.marked) memory.cas(e.table.region(), e.offset + WaitDieTuple.WAITER, e.ts, 0);
    }

    /**
     * An RPC RELEASE of tuple {@code off} of {@code t} on this node: clears the lock word and lets the
     * tuple's waiters try again, in one step under the monitor, so a request parked concurrently (on another
     * handler thread) either saw the lock free or is serviced here.
     */
    synchronized void release(RpcWorker w, Table t, long off) {
        memory.putLongVolatile(t.region(), off + WaitDieTuple.LOCK, 0);
        if (size > 0) serviceTuple(w, t, off, w.now() >= endTime(), BY_RELEASE);
    }

    /** An RPC RELEASE of a shared read lock: one reader less, then the tuple's waiters try again (under the monitor). */
    synchronized void releaseShared(RpcWorker w, Table t, long off) {
        memory.faa(t.region(), off + WaitDieTuple.LOCK, -1);
        if (size > 0) serviceTuple(w, t, off, w.now() >= endTime(), BY_RELEASE);
    }

    /**
     * The poller of worker {@code w}: re-attempts every tuple it parked waiters on.
     * @return whether waiters parked by this worker are left
     */
    synchronized boolean poll(RpcWorker w, boolean ended) {
        int mine = w.index;
        if (parkedBy[mine] == 0) return false;
        int n = 0;
        Table[] ts = pollTables[mine];
        long[] offs = pollOffsets[mine];
        for (int i = 0; i < size; i++) {
            Waiter e = waiting[i];
            if (e.worker != mine) continue;
            boolean seen = false;
            for (int k = 0; k < n; k++) if (ts[k] == e.table && offs[k] == e.offset) { seen = true; break; }
            if (seen) continue;
            if (n == ts.length) {
                ts = pollTables[mine] = Arrays.copyOf(ts, n * 2);
                offs = pollOffsets[mine] = Arrays.copyOf(offs, n * 2);
            }
            ts[n] = e.table;
            offs[n++] = e.offset;
        }
        for (int k = 0; k < n; k++) {
            serviceTuple(w, ts[k], offs[k], ended, BY_POLL);
            ts[k] = null;
        }
        return parkedBy[mine] > 0;
    }

    /** Attempts the tuple's waiters oldest first; decided ones are resolved (under the monitor). */
    private void serviceTuple(RpcWorker w, Table t, long off, boolean ended, int by) {
        int n = 0;
        Waiter[] s = scratch(w.index, size);
        for (int i = 0; i < size; i++) {
            Waiter e = waiting[i];
            if (e.table == t && e.offset == off) s[n++] = e;
        }
        if (n == 0) return;
        for (int i = 1; i < n; i++) {
            Waiter e = s[i];
            int j = i - 1;
            while (j >= 0 && s[j].ts > e.ts) {
                s[j + 1] = s[j];
                j--;
            }
            s[j + 1] = e;
        }
        long now = w.now();
        long tupleCost = w.profile().tupleOpNs;
        for (int k = 0; k < n; k++) {
            Waiter e = s[k];
            s[k] = null;
            if (!e.active) continue;
            w.charge(tupleCost);
            int o = attempt(w, t, off, e.ts, e.mode, ended, e.request.call.reply, e.reply, e.marked);
            if (o == WaitDieTuple.WAIT) {
                mark(e);
                continue;
            }
            if (measuring(now)) {
                if (o != WaitDieTuple.GRANTED) parkedDied++;
                else if (by == BY_RELEASE) grantsOnRelease++;
                else grantsByPoll++;
                maxWaitNs = Math.max(maxWaitNs, now - e.since);
            }
            resolve(w, e, o);
        }
    }

    /** A waiter is decided: answer its item; if it failed, cancel the request's other waiting items. */
    private void resolve(RpcWorker w, Waiter e, int outcome) {
        Parked req = e.request;
        if (outcome != WaitDieTuple.GRANTED) {
            unmark(e);
            for (int i = size - 1; i >= 0; i--) {
                Waiter x = waiting[i];
                if (x == e || x.request != req) continue;
                unmark(x);
                TupleRpc.Reply.r1(req.call.reply, x.reply, WaitDieTuple.CANCELLED);
                retire(x);
            }
        }
        retire(e);
        if (req.unresolved == 0) {
            int me = w.index;
            if (replyCount[me] == replies[me].length) replies[me] = Arrays.copyOf(replies[me], replyCount[me] * 2);
            replies[me][replyCount[me]++] = req.call;
            req.call = null;
            if (freeParkedCount == freeParked.length) freeParked = Arrays.copyOf(freeParked, freeParkedCount * 2);
            freeParked[freeParkedCount++] = req;
        }
    }

    /** Removes a decided waiter from the queue and its request's count. */
    private void retire(Waiter e) {
        for (int i = 0; i < size; i++) {
            if (waiting[i] == e) {
                waiting[i] = waiting[--size];
                waiting[size] = null;
                break;
            }
        }
        e.request.unresolved--;
        parkedBy[e.worker]--;
        free(e);
    }

    /** Sends the replies of requests this worker decided (after leaving the monitor). */
    void sendReplies(RpcWorker w) {
        int me = w.index;
        Op[] rs = replies[me];
        for (int i = 0, n = replyCount[me]; i < n; i++) {
            w.reply(rs[i]);
            rs[i] = null;
        }
        replyCount[me] = 0;
    }

    private void add(Waiter e) {
        if (size == waiting.length) waiting = Arrays.copyOf(waiting, size * 2);
        waiting[size++] = e;
    }

    private Waiter[] scratch(int worker, int n) {
        if (scratch[worker].length < n) scratch[worker] = new Waiter[Math.max(n, scratch[worker].length * 2)];
        return scratch[worker];
    }

    private Waiter newWaiter() {
        Waiter e = freeWaiterCount > 0 ? freeWaiters[--freeWaiterCount] : new Waiter();
        e.marked = false;
        e.active = false;
        return e;
    }

    private void free(Waiter e) {
        e.active = false;
        e.request = null;
        e.table = null;
        if (freeWaiterCount == freeWaiters.length) freeWaiters = Arrays.copyOf(freeWaiters, freeWaiterCount * 2);
        freeWaiters[freeWaiterCount++] = e;
    }

    private Parked newParked() { return freeParkedCount > 0 ? freeParked[--freeParkedCount] : new Parked(); }
}
