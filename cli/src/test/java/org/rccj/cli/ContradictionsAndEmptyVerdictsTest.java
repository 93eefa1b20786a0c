package org.rccj.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.experiments.Exit;
import org.rccj.framework.run.RunResult;

/**
 * Issue 38 findings 4 and 8: settings that contradict each other are refused naming both; a hybrid string with an
 * empty or repeated stage is refused (not read as all-rpc or as one stage); a run whose verification checked no
 * transaction is not reported as a pass.
 */
class ContradictionsAndEmptyVerdictsTest {
    @TempDir Path dir;

    private Path occ(String... extra) throws Exception {
        StringBuilder sb = new StringBuilder("name: c\nfabric: sim\nnodes: 3\nthreads: 1\ncoroutines: 2\nprotocol: occ\nhybrid: all-onesided\n"
                + "workload: {name: smallbank, accounts_per_thread: 50}\nwarmup_ms: 0.1\nduration_ms: 0.2\nverify: true\n");
        for (String l : extra) sb.append(l).append('\n');
        return Cli.file(dir, "c.yaml", sb.toString());
    }

    @Test
    void incoherentAtomicsOnAProfileThatDeclaresThemCoherentIsRefusedNamingBoth() throws Exception {
        Path profile = Files.writeString(dir.resolve("coherent.properties"), "base=cx4-edr\nnic.atomics_coherent=1\n");
        // at 21566c6 this ran: the loopback was off, updates were lost and the run failed verification (exit 1) unexplained
        Cli.run(dir, "run", occ("profile: " + profile, "faults: {incoherent_atomics: true}").toString())
                .assertBadInput("faults.incoherent_atomics: true contradicts profile " + profile, "nic.atomics_coherent=1",
                        "drop the fault or use a profile with nic.atomics_coherent=0");
        // either alone is fine: the fault on the built-in (incoherent) profile, the coherent profile without the fault
        assertEquals(Exit.OK, Cli.run(dir, (c, p) -> Cli.result(c, Cli.passed()), "run", occ("profile: " + profile).toString()).code());
        assertEquals(Exit.OK, Cli.run(dir, (c, p) -> Cli.result(c, Cli.passed()), "run", occ("faults: {incoherent_atomics: true}").toString(),
                "--out", "fault").code());
    }

    @ParameterizedTest
    @ValueSource(strings = {"+", "READ+", "+READ", "READ++LOCK", " + "})
    void aHybridStringWithAnEmptyStageIsRefused(String hybrid) throws Exception {
        Cli.run(dir, "run", occ().toString(), "--set", "hybrid=" + hybrid).assertBadInput("hybrid: '" + hybrid.trim() + "' has an empty stage name");
    }

    @ParameterizedTest
    @ValueSource(strings = {"READ+READ", "READ+LOCK+read", "LOCK+READ+LOCK"})
    void aHybridStringNamingAStageTwiceIsRefused(String hybrid) throws Exception {
        Cli.run(dir, "run", occ().toString(), "--set", "hybrid=" + hybrid).assertBadInput("hybrid: '" + hybrid + "' names stage ", " twice");
    }

    @Test
    void aRunWhoseVerificationCheckedNothingIsNotAPass() throws Exception {
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml("verify: true"));
        RunResult.Verification empty = new RunResult.Verification(true, true, 0, List.of(), Map.of("total_money", true));
        assertFalse(empty.passed(), "nothing checked is not a pass");
        Cli.Outcome o = Cli.run(dir, (c, p) -> Cli.result(c, empty), "run", f.toString());
        assertEquals(Exit.VERIFICATION_FAILED, o.code(), o.err());
        assertTrue(o.out().contains("verification  not checked: nothing committed (0 transactions to check)"), o.out());
        assertFalse(o.out().contains("serializable: yes"), o.out());
        assertTrue(o.err().contains("rcc: verification not done: no transaction committed, so there was nothing to check; "
                + "raise duration_ms (or warmup_ms) or check the config (exit code 1)"), o.err());
        // a sweep point that checked nothing is not counted as verified either
        assertEquals(0, new com.fasterxml.jackson.databind.ObjectMapper().readTree(dir.resolve("out/exp/summary.json").toFile())
                .get("verification").get("txns_checked").asLong());
        assertFalse(org.rccj.results.RunMetrics.read(dir.resolve("out/exp")).verificationPassed());
    }

    /** A run that committed nothing has no figure to draw: one line saying so (exit 2), not an internal error. */
    @Test
    void plotOfARunThatCommittedNothingSaysSo() throws Exception {
        Path f = Cli.file(dir, "exp.yaml", Cli.yaml("verify: false"));
        org.rccj.experiments.Runner nothing = (c, p) -> {
            RunResult r = new RunResult();
            r.config = c;
            r.measuredS = 0.01;
            return r;
        };
        Cli.run(dir, nothing, "run", f.toString(), "--out", "empty").assertOk();
        // at 10ebb0c: exit 3, "internal error: java.lang.IllegalArgumentException: no stage took any time"
        Cli.run(dir, "plot", "empty").assertBadInput("plot: empty committed no transaction in its measured window (summary.json: commits 0),"
                + " so there is nothing to draw; run again with a longer duration_ms (or warmup_ms)");
        // beside a run that committed, it is drawn with the other
        Cli.run(dir, (c, p) -> Cli.result(c, Cli.passed()), "run", f.toString(), "--out", "full").assertOk();
        Cli.run(dir, "plot", "empty", "full", "--out", "p").assertOk();
        assertTrue(Files.isRegularFile(dir.resolve("p/stage-breakdown.png")));
    }
}
