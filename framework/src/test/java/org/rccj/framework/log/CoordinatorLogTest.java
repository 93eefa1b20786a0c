package org.rccj.framework.log;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.fake.FakeCluster;
import org.rccj.framework.fake.FakeContext;
import org.rccj.framework.store.HeaderLayout;
import org.rccj.framework.store.Table;
import org.rccj.framework.store.TableSpec;
import org.rccj.framework.txn.Tx;
import org.rccj.primitives.Verb;

/**
 * The LOG stage over a fake context: both halves put the same entry in the same backups' rings, send the clean
 * message to the same targets, and a worker's next entry goes after its previous one.
 */
class CoordinatorLogTest {
    /** Key k lives on node k % 3. */
    static final List<TableSpec> TABLES = List.of(new TableSpec("t", 8, 64, (key, nodes) -> (int) (key % nodes)));

    final FakeCluster cluster = FakeCluster.of(3, 1, 2, HeaderLayout.of("w"), TABLES);
    final Table t = cluster.store.table("t");
    final CoordinatorLog log = new CoordinatorLog(cluster.shape, cluster.fabric, cluster::register);
    final FakeContext ctx = new FakeContext(cluster, 0, 0, 0);

    /** Attempt {@code id} on node 0: writes keys 1 and 4 (node 1), reads key 2. */
    Tx writeOnNodeOne(long id) {
        Tx tx = ctx.begin(id);
        tx.readForUpdate(t, 1);
        tx.write(t, 4);
        tx.read(t, 2);
        return tx;
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void bothHalvesWriteTheEntryToTheSameBackupsAndCleanThere(boolean oneSided) {
        log.append(ctx, writeOnNodeOne(42), oneSided);
        // partition 1's backup is node 2; the coordinator's own partition 0's is node 1
        assertEquals(List.of(1, 2, 1, 2), ctx.targets);
        assertEquals(oneSided ? 2 : 0, ctx.count(Verb.WRITE));
        assertEquals(oneSided ? 2 : 4, ctx.count(Verb.RPC), "the clean message goes as an RPC on both halves");
        assertEquals(0, log.entryTxn(0, 0, 0, 0), "node 0 backs neither");
        assertEquals(42, log.entryTxn(1, 0, 0, 0));
        assertEquals(42, log.entryTxn(2, 0, 0, 0));
        assertEquals(1, log.cleanMessages(1));
        assertEquals(1, log.cleanMessages(2));
        assertEquals(0, log.cleanedItems(1), "node 1 does not back partition 1");
        assertEquals(2, log.cleanedItems(2), "node 2 backs partition 1: both items applied");
        assertEquals(0, ctx.taken());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aWorkersNextEntryGoesAfterItsLastOne(boolean oneSided) {
        log.append(ctx, writeOnNodeOne(42), oneSided, false);
        int first = CoordinatorLog.entryBytes(ctx.tx);
        log.append(ctx, writeOnNodeOne(43), oneSided, false);
        assertEquals(42, log.entryTxn(2, 0, 0, 0));
        assertEquals(43, log.entryTxn(2, 0, 0, first));
        assertEquals(0, log.cleanMessages(2), "no clean message asked for");
    }

    @Test
    void aReadOnlyTransactionLogsNothing() {
        Tx tx = ctx.begin(42);
        tx.read(t, 1);
        log.append(ctx, tx, true);
        assertTrue(ctx.posted.isEmpty());
    }
}
