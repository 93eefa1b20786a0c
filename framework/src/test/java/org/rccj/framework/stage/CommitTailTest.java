package org.rccj.framework.stage;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.api.Stage;
import org.rccj.framework.fake.FakeCluster;
import org.rccj.framework.fake.FakeContext;
import org.rccj.framework.log.CoordinatorLog;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.Access;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Verb;

/**
 * The shared commit tail over a fake context: LOG, COMMIT and RELEASE each on the transport its hybrid bit names,
 * RELEASE only while something is still held, and the abort path's RELEASE only when something is held.
 */
class CommitTailTest {
    static final HeaderLayout HEADER = HeaderLayout.of("lock");
    static final int LOCK = HEADER.offset("lock");
    static final long TXN = 42;
    static final List<Stage> STAGES = List.of(Stage.LOG, Stage.COMMIT, Stage.RELEASE);
    /** Key k lives on node k % nodes. */
    static final List<TableSpec> TABLES = List.of(new TableSpec("t", 8, 64, (key, nodes) -> (int) (key % nodes)));

    final FakeCluster cluster = FakeCluster.of(3, 1, 2, HEADER, TABLES);
    final Table t = cluster.store.table("t");
    final FakeContext ctx = new FakeContext(cluster, 0, 0, 0);
    final CoordinatorLog log = new CoordinatorLog(cluster.shape, cluster.fabric, cluster::register);
    final ReleaseWord.Rpc unlockRpc = new ReleaseWord.Rpc(cluster, "test.unlock", LOCK);
    /** COMMIT: unlocks the written tuples (standing in for install + unlock). */
    final ReleaseWord commit = new ReleaseWord(ctx, unlockRpc, LOCK) {
        @Override protected boolean selected(Access a) { return a.locked && a.write; }
    };
    /** RELEASE: unlocks whatever is still locked. */
    final ReleaseWord release = new ReleaseWord(ctx, unlockRpc, LOCK);

    CommitTailTest() {
        cluster.log = log;
        for (long k = 0; k < 6; k++) cluster.store.load(t, k, new byte[8]);
    }

    /** Attempt {@link #TXN} holding locks on keys 1 and 2 (written) and, with {@code readLock}, 3 (read). */
    Tx holding(boolean readLock) {
        Tx tx = ctx.begin(TXN);
        tx.readForUpdate(t, 1);
        tx.readForUpdate(t, 2);
        tx.read(t, 3);
        for (int i = 0; i < tx.size(); i++) {
            Access a = tx.access(i);
            a.offset = cluster.store.locate(t, a.key);
            a.locked = a.write || readLock;
            if (a.locked) cluster.memory(a.node).putLong(t.region(), a.offset + LOCK, TXN);
        }
        return tx;
    }

    long lockWord(long key) { return cluster.memory((int) (key % 3)).getLong(t.region(), cluster.store.locate(t, key) + LOCK); }

    /** @param oneSided the bits of LOG, COMMIT, RELEASE (bit 0, 1, 2) bound one-sided */
    @ParameterizedTest
    @ValueSource(ints = {0b000, 0b111, 0b001, 0b110})
    void logCommitThenReleaseWhatIsStillHeldEachOnItsTransport(int oneSided) {
        int code = 0;
        for (int s = 0; s < 3; s++) if ((oneSided >> s & 1) != 0) code |= STAGES.get(s).bit;
        HybridCode hybrid = new HybridCode(code, STAGES);
        Tx tx = holding(true);
        CommitTail.run(ctx, tx, hybrid, ctx.stageStart(), true, commit, release);
        assertEquals(STAGES, ctx.stages);
        for (long k = 1; k <= 3; k++) assertEquals(0, lockWord(k), "key " + k + " unlocked");
        for (int i = 0; i < tx.size(); i++) assertFalse(tx.access(i).locked);
        // the backups of partitions 1 and 2 (nodes 2 and 0) and of the coordinator's partition 0 (node 1)
        for (int n = 0; n < 3; n++) assertEquals(TXN, log.entryTxn(n, 0, 0, 0), "node " + n + " holds the entry");
        // LOG one-sided: a WRITE per target; COMMIT and RELEASE one-sided: a WRITE per tuple
        long writes = ((oneSided & 1) != 0 ? 3 : 0) + ((oneSided & 2) != 0 ? 2 : 0) + ((oneSided & 4) != 0 ? 1 : 0);
        assertEquals(writes, ctx.count(Verb.WRITE));
    }

    @Test
    void withNothingHeldAfterCommitThereIsNoRelease() {
        Tx tx = holding(false);
        CommitTail.run(ctx, tx, HybridCode.allRpc(STAGES), ctx.stageStart(), true, commit, release);
        assertEquals(List.of(Stage.LOG, Stage.COMMIT), ctx.stages);
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void theAbortReleasesWhatIsHeldAndOnlyThen(boolean oneSided) {
        HybridCode hybrid = oneSided ? HybridCode.allOneSided(STAGES) : HybridCode.allRpc(STAGES);
        Tx tx = holding(true);
        CommitTail.abort(ctx, tx, hybrid, release);
        assertEquals(List.of(Stage.RELEASE), ctx.stages);
        for (long k = 1; k <= 3; k++) assertEquals(0, lockWord(k), "key " + k);
        int posted = ctx.posted.size();
        CommitTail.abort(ctx, tx, hybrid, release);
        assertEquals(List.of(Stage.RELEASE), ctx.stages, "nothing held: no stage");
        assertEquals(posted, ctx.posted.size(), "and nothing posted");
    }
}
