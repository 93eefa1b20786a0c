package org.rccj.primitives;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Profiles: built-ins, files that start from one, and the errors a user's file can cause. */
class CostProfileTest {
    @TempDir Path dir;

    private Path file(String text) throws Exception {
        Path p = dir.resolve("p.properties");
        Files.writeString(p, text);
        return p;
    }

    @Test
    void everyBuiltInLoadsAndSetsEveryParameter() {
        for (String name : CostProfile.known()) {
            CostProfile p = CostProfile.load(name);
            assertEquals(name, p.name);
            for (CostProfile.Parameter q : CostProfile.PARAMETERS) {
                assertFalse(CostProfile.parameters(name).get(q.key()).isEmpty(), name + " lacks " + q.key());
            }
        }
    }

    @Test
    void fileStartsFromABuiltInAndOverrides() throws Exception {
        CostProfile p = CostProfile.load(file("base=cx4-edr\nnic.read_mops=50\nwire.one_way_ns=900\n").toString());
        assertEquals(20.0, p.nicReadNs, 1e-9);
        assertEquals(900, p.oneWayNs);
        assertEquals(CostProfile.load("cx4-edr").nicWriteNs, p.nicWriteNs, 1e-12);
    }

    /** A profile file with {@code text} is refused with a message containing {@code named}. */
    private void refused(String text, String named) throws Exception {
        Path f = file(text);
        var e = assertThrows(IllegalArgumentException.class, () -> CostProfile.load(f.toString()));
        assertTrue(e.getMessage().contains(named), e.getMessage());
    }

    @Test
    void unknownParameterIsNamed() throws Exception { refused("base=cx4-edr\nnic.reed_mops=50\n", "nic.reed_mops"); }

    @Test
    void outOfRangeParameterIsNamed() throws Exception {
        refused("base=cx4-edr\nnic.atomics_coherent=2\n", "nic.atomics_coherent");
        refused("base=cx4-edr\nlink.gbps=abc\n", "link.gbps");
    }

    @Test
    void missingParameterWithoutBaseIsNamed() throws Exception { refused("nic.read_mops=50\n", "lacks"); }

    @Test
    void unknownNameOrBase() throws Exception {
        var e = assertThrows(IllegalArgumentException.class, () -> CostProfile.load("cx9"));
        assertTrue(e.getMessage().contains("cx4-edr"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> CostProfile.load(file("base=cx9\n").toString()));
        assertTrue(e.getMessage().contains("base=cx9"), e.getMessage());
    }

    @Test
    void qpMissFractionGrowsPastTheCache() {
        CostProfile p = CostProfile.load("cx4-edr");
        assertEquals(0, p.qpMissFraction((long) p.qpCacheEntries));
        assertTrue(p.qpMissFraction(960) > 0.5);
    }
}
