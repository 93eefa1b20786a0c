package org.rccj.framework.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.WorkerHost;

/**
 * A process that hosts one node of a multi-process cluster (tcp) loads only that node's rows: the other nodes'
 * memory stays an unallocated shadow, while slot counts (and so {@link Store#forEach} after node 0 installed the
 * nodes' final memory) agree with a process that loads everything.
 */
class OwnRowsOnlyTest {
    /** Three nodes' memory; hosts only {@code self} (self < 0: every node, like an in-process fabric). */
    private record Shadowed(int self, RegisteredMemory[] memory) implements org.rccj.framework.fake.FakeCluster.MemoryOnly {
        static Shadowed of(int self) {
            RegisteredMemory[] m = new RegisteredMemory[3];
            for (int n = 0; n < 3; n++) m[n] = self < 0 || n == self ? RegisteredMemory.direct(n) : RegisteredMemory.shadow(n);
            return new Shadowed(self, m);
        }

        @Override public String name() { return "test"; }
        @Override public int nodes() { return 3; }
        @Override public int threads() { return 1; }
        @Override public RegisteredMemory memory(int node) { return memory[node]; }
        @Override public Endpoint endpoint(int node, int worker) { throw new UnsupportedOperationException(); }
        @Override public void run(WorkerHost[][] hosts) { throw new UnsupportedOperationException(); }
        @Override public boolean hosts(int node) { return self < 0 || node == self; }
    }

    private static Store load(Fabric f) {
        Store s = new Store(f, HeaderLayout.of("w"), List.of(new TableSpec("t", 8, 4000, Partitioner.HASH)));
        Table t = s.table("t");
        byte[] rec = new byte[8];
        for (long k = 1; k <= 3000; k++) {
            Bytes.putLong(rec, 0, k * 7);
            s.load(t, k, rec);
        }
        return s;
    }

    private static List<Long> visit(Store s) {
        List<Long> out = new ArrayList<>();
        s.forEach(s.table("t"), (node, key, off) -> {
            out.add((long) node);
            out.add(key);
            out.add(off);
            out.add(s.table("t").getField(s.fabric().memory(node), off, 0));
        });
        return out;
    }

    @Test
    void onlyTheHostedNodesRowsAreLoadedAndInstalledMemoryGivesTheSameTuples() {
        Store all = load(Shadowed.of(-1));
        Shadowed f = Shadowed.of(1);
        Store own = load(f);
        assertEquals(0, f.memory(0).allocatedBytes(), "node 0's memory is a shadow here");
        assertEquals(0, f.memory(2).allocatedBytes(), "node 2's memory is a shadow here");
        assertEquals(f.memory(1).totalBytes(), f.memory(1).allocatedBytes());
        Table t = own.table("t");
        for (int n = 0; n < 3; n++) assertEquals(all.table("t").rows(n), t.rows(n), "slots of node " + n);
        assertTrue(t.rows(0) > 0 && t.rows(2) > 0);
        for (long k = 1; k <= 3000; k++) {
            if (t.nodeOf(k, 3) == 1) assertEquals(k * 7, own.field(t, k, 0));
        }
        // node 0 at the end of a verified run: the other nodes' final memory installed into the shadows
        for (int n : new int[] {0, 2}) {
            RegisteredMemory from = all.fabric().memory(n), to = f.memory(n);
            for (int r = 0; r < from.regionCount(); r++) {
                byte[] b = new byte[(int) from.regionSize(r)];
                from.read(r, 0, b, 0, b.length);
                to.write(r, 0, b, 0, b.length);
            }
        }
        assertEquals(visit(all), visit(own));
    }
}
