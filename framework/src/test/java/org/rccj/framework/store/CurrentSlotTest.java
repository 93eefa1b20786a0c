package org.rccj.framework.store;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.primitives.Bytes;
import org.rccj.primitives.Endpoint;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.RegisteredMemory;
import org.rccj.primitives.WorkerHost;

/** getField/putField read the slot the header's current-slot rule names; without a rule, slot 0. */
class CurrentSlotTest {
    /** One node's memory and nothing else: the store needs no endpoints. */
    private record OneNode(RegisteredMemory memory) implements org.rccj.framework.fake.FakeCluster.MemoryOnly {
        @Override public String name() { return "test"; }
        @Override public int nodes() { return 1; }
        @Override public int threads() { return 1; }
        @Override public RegisteredMemory memory(int node) { return memory; }
        @Override public Endpoint endpoint(int node, int worker) { throw new UnsupportedOperationException(); }
        @Override public void run(WorkerHost[][] hosts) { throw new UnsupportedOperationException(); }
    }

    private static Store store(HeaderLayout h) {
        return new Store(new OneNode(RegisteredMemory.direct(0)), h, List.of(new TableSpec("t", 8, 10, Partitioner.HASH)));
    }

    private static byte[] rec(long v) {
        byte[] b = new byte[8];
        Bytes.putLong(b, 0, v);
        return b;
    }

    @Test
    void withoutRuleSlotZeroIsCurrent() {
        Store s = store(HeaderLayout.of("w").withRecordSlots(3));
        Table t = s.table("t");
        s.load(t, 5, rec(42));
        assertEquals(42, s.field(t, 5, 0));
        s.setField(t, 5, 0, 43);
        assertEquals(43, s.field(t, 5, 0));
    }

    @Test
    void ruleSelectsTheSlotNamedByAHeaderWord() {
        HeaderLayout base = HeaderLayout.of("cur");
        int cur = base.offset("cur");
        HeaderLayout h = base.withCurrentSlot((m, region, off) -> (int) m.getLong(region, off + cur)).withRecordSlots(3);
        Store s = store(h);
        Table t = s.table("t");
        s.load(t, 5, rec(42));
        long off = s.locate(t, 5);
        RegisteredMemory m = s.fabric().memory(0);
        m.putLong(t.region(), off + t.recordOffset(2), 77);
        assertEquals(42, s.field(t, 5, 0), "slot 0 until the header names another");
        m.putLong(t.region(), off + cur, 2);
        assertEquals(77, s.field(t, 5, 0));
        s.setField(t, 5, 0, 78);
        assertEquals(78, m.getLong(t.region(), off + t.recordOffset(2)));
        assertEquals(42, m.getLong(t.region(), off + t.recordOffset(0)), "other slots untouched");
    }
}
