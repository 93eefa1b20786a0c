package org.rccj.framework.stage;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.api.ClusterView;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.api.RpcWorker;
import org.rccj.framework.fake.FakeCluster;
import org.rccj.framework.fake.FakeContext;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.AbortException;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Op;
import org.rccj.primitives.Verb;

/**
 * The stage kit ({@link TupleStage} over {@link TupleRpc}) run over a fake context, without a runtime: a CAS lock
 * stage whose one-sided half and RPC half must decide the same way, a lost CAS, an abort in the middle of a batch
 * (the first failure is kept and thrown only once every access is decided), and one-sided rounds.
 */
class TupleStageTest {
    static final HeaderLayout HEADER = HeaderLayout.of("lock");
    static final int LOCK = HEADER.offset("lock");
    static final long TXN = 42, OTHER = 7;
    /** Key k lives on node k % nodes. */
    static final List<TableSpec> TABLES = List.of(new TableSpec("t", 8, 64, (key, nodes) -> (int) (key % nodes)));

    /** A lock on every written tuple: CAS 0 -> the transaction's id; a word held by another fails the access. */
    static final class Lock extends TupleStage {
        static final class Rpc extends TupleRpc {
            Rpc(ClusterView c) { super(c, "test.lock"); }

            @Override
            protected void serve(RpcWorker w, Table t, Request q, Reply out) {
                long off = q.offset(), id = q.arg0();
                out.r0(w.memory.cas(t.region(), off + LOCK, 0, id));
            }
        }

        /** Keys decided, in decision order. */
        final List<Long> decided = new ArrayList<>();
        /** Keys whose decision fails with this, after locking. */
        final Map<Long, AbortException> veto = new HashMap<>();
        /** One-sided: the key whose access asks for one more round (its CAS then finds its own lock). */
        long again = -1;

        Lock(CoroutineContext ctx, Rpc rpc) { super(ctx, rpc); }

        @Override protected boolean selected(Access a) { return a.write; }

        @Override
        protected void post(Access a, int i) {
            add(ctx.op().cas(a.node, a.table.region(), a.offset + LOCK, 0, ctx.tx.id));
        }

        @Override
        protected boolean completed(Access a, int i, Op first, Op second) {
            assertNull(second, "one op per access");
            if (round() == 0 && a.key == again) return true;
            decide(a, first.result);
            return false;
        }

        @Override protected long arg0(Access a) { return ctx.tx.id; }

        @Override protected void replied(Access a, long found, long r1, byte[] reply, int payload) { decide(a, found); }

        private void decide(Access a, long found) {
            decided.add(a.key);
            if (found != 0 && found != ctx.tx.id) throw AbortException.conflict("locked");
            AbortException e = veto.get(a.key);
            if (e != null) throw e;
        }
    }

    final FakeCluster cluster = FakeCluster.of(2, 1, 1, HEADER, TABLES);
    final Table t = cluster.store.table("t");
    final FakeContext ctx = new FakeContext(cluster, 0, 0, 0);
    final Lock lock = new Lock(ctx, new Lock.Rpc(cluster));

    TupleStageTest() {
        for (long k = 0; k < 8; k++) cluster.store.load(t, k, new byte[8]);
    }

    /** Starts attempt {@link #TXN}: keys 0..5, of which 1 and 4 are only read; each access located. */
    Tx begin() {
        Tx tx = ctx.begin(TXN);
        for (long k = 0; k < 6; k++) {
            int h = k == 1 || k == 4 ? tx.read(t, k) : tx.readForUpdate(t, k);
            tx.access(h).offset = cluster.store.locate(t, k);
        }
        return tx;
    }

    long lockWord(long key) { return cluster.memory((int) (key % 2)).getLong(t.region(), cluster.store.locate(t, key) + LOCK); }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bothHalvesLockEveryWrittenTupleAndOnlyThose(boolean oneSided) {
        Tx tx = begin();
        lock.run(tx, oneSided);
        for (long k = 0; k < 6; k++) assertEquals(k == 1 || k == 4 ? 0 : TXN, lockWord(k), "key " + k);
        assertEquals(List.of(0L, 2L, 3L, 5L), lock.decided.stream().sorted().toList());
        if (oneSided) {
            assertEquals(4, ctx.count(Verb.CAS));
            assertEquals(0, ctx.count(Verb.RPC));
            assertEquals(1, ctx.flushes, "every access in one flush");
        } else {
            assertEquals(0, ctx.count(Verb.CAS));
            assertEquals(2, ctx.count(Verb.RPC), "one batched RPC per node");
            for (int n = 0; n < 2; n++) {
                FakeCluster.FakeWorker w = cluster.worker(n, 0);
                assertEquals(1, w.handled, "node " + n);
                assertEquals(1, w.replies, "node " + n);
                assertEquals(2 * FakeCluster.COST.tupleOpNs, w.charged, "node " + n + ": the handler pays per item (2 each)");
            }
        }
        assertEquals(0, ctx.taken(), "the stage released its ops");
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aLostCasFailsItsAccessOnceEveryAccessIsDecided(boolean oneSided) {
        Tx tx = begin();
        cluster.memory(0).putLong(t.region(), cluster.store.locate(t, 2) + LOCK, OTHER);
        AbortException e = assertThrows(AbortException.class, () -> lock.run(tx, oneSided));
        assertEquals("locked", e.reason);
        assertEquals(OTHER, lockWord(2), "the other's lock stays");
        for (long k : new long[] {0, 3, 5}) assertEquals(TXN, lockWord(k), "key " + k + " locked: a RELEASE after the abort knows it");
        assertEquals(4, lock.decided.size(), "every access decided before the abort is thrown");
        assertEquals(0, ctx.taken());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anAbortInTheMiddleOfABatchKeepsTheFirstFailure(boolean oneSided) {
        Tx tx = begin();
        AbortException first = AbortException.conflict("first"), second = AbortException.conflict("second");
        lock.veto.put(2L, first);
        lock.veto.put(5L, second);
        AbortException e = assertThrows(AbortException.class, () -> lock.run(tx, oneSided));
        // one-sided: decisions in transaction order (0, 2, 3, 5); RPC: node 0's message (keys 0, 2), then node 1's
        assertSame(first, e);
        assertEquals(List.of(0L, 2L, 3L, 5L), lock.decided, "the accesses after the failure are still decided");
        assertEquals(1, oneSided ? ctx.flushes : ctx.count(Verb.RPC) / 2, "one batch went out");
        for (long k : new long[] {0, 2, 3, 5}) assertEquals(TXN, lockWord(k), "key " + k);

        // the next run starts with a clean verdict
        lock.veto.clear();
        lock.decided.clear();
        lock.run(tx, oneSided);
        assertEquals(4, lock.decided.size());
    }

    @Test
    void oneSidedRoundsRepostOnlyTheAccessesThatAskAgain() {
        Tx tx = begin();
        lock.again = 3;
        lock.run(tx, true);
        assertEquals(2, ctx.flushes, "two rounds");
        assertEquals(5, ctx.count(Verb.CAS), "four accesses, one of them twice");
        assertEquals(List.of(0L, 2L, 5L, 3L), lock.decided, "the repeated access is decided in the second round");
        assertEquals(TXN, lockWord(3));
    }
}
