package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's profile file: starts from a built-in one; an unknown or out-of-range parameter exits 2 naming it. */
class ProfileFileTest {
    @TempDir Path dir;

    private Cli.Outcome runWithProfile(String profileText) throws Exception {
        Path p = Cli.file(dir, "my.properties", profileText);
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml("profile: " + p));
        return Cli.run(dir, "run", f.toString());
    }

    @Test void unknownParameter() throws Exception {
        runWithProfile("base=cx4-edr\nnic.reed_mops=10\n").assertBadInput("profile", "nic.reed_mops", "unknown parameter");
    }

    @Test void outOfRangeParameter() throws Exception {
        runWithProfile("base=cx4-edr\nnic.read_mops=-3\n").assertBadInput("profile", "nic.read_mops", "out of range");
    }

    @Test void unknownBase() throws Exception {
        runWithProfile("base=cx9\n").assertBadInput("profile", "base=cx9", "cx4-edr");
    }

    @Test void unknownBuiltIn() throws Exception {
        Cli.run(dir, "run", Cli.file(dir, "exp.yaml", Cli.yaml("profile: cx9")).toString()).assertBadInput("profile", "cx9", "cx4-edr", "cx6-hdr");
    }

    @Test void goodFileIsAccepted() throws Exception {
        Path p = Cli.file(dir, "ok.properties", "base=cx4-edr\nwire.one_way_ns=900\n");
        var c = org.rccj.framework.run.ConfigResolver.resolve(new java.util.LinkedHashMap<>(java.util.Map.of(
                "protocol", "fakeproto", "nodes", 3, "profile", p.toString(), "workload", java.util.Map.of("name", "fakewl"))));
        assertEquals(p.toString(), c.fabricSetting("profile"));
        assertEquals(900, org.rccj.primitives.CostProfile.load((String) c.fabricSetting("profile")).oneWayNs);
    }

    @Test void benchRejectsABadFile() throws Exception {
        Path p = Cli.file(dir, "bad.properties", "base=cx4-edr\nnic.atomics_coherent=7\n");
        Cli.run(dir, "bench", "--profile", p.toString()).assertBadInput("nic.atomics_coherent");
    }

    @Test void listShowsBuiltInProfiles() {
        Cli.Outcome o = Cli.run(dir, "list");
        assertTrue(o.out().contains("cx4-edr") && o.out().contains("cx6-hdr") && o.out().contains("profile file"), o.out());
    }

    @Test void localRejectsABadFileNamingIt() throws Exception {
        Path p = Cli.file(dir, "bad.properties", "base=cx4-edr\nnic.reed_mops=10\n");
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml("fabric: local", "profile: " + p));
        Cli.run(dir, "run", f.toString()).assertBadInput("profile", "bad.properties", "nic.reed_mops");
        Path missing = dir.resolve("missing.properties");
        Cli.run(dir, "run", Cli.file(dir, "exp2.yaml", Cli.yaml("fabric: local", "profile: " + missing)).toString())
                .assertBadInput("profile", "missing.properties");
    }

    @Test void localTakesAGoodFile() throws Exception {
        Path p = Cli.file(dir, "ok.properties", "base=cx6-hdr\nwire.one_way_ns=900\n");
        var c = org.rccj.framework.run.ConfigResolver.resolve(new java.util.LinkedHashMap<>(java.util.Map.of(
                "protocol", "fakeproto", "nodes", 3, "fabric", "local", "profile", p.toString(), "workload", java.util.Map.of("name", "fakewl"))));
        assertEquals(p.toString(), c.fabricSetting("profile"));
    }

    @Test void listSaysWhichCodesNeedLoopbackAtomics() {
        Cli.Outcome o = Cli.run(dir, "list");
        assertTrue(o.out().contains("codes that need loopback atomics"), o.out());
        assertFalse(o.out().contains("every code except all-rpc"), o.out());
    }
}
