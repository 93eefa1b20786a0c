package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.rccj.framework.run.RunResult;
import org.rccj.testkit.SmallRuns;

/**
 * With torn one-sided READs injected, the protocols that read a tuple twice (MVCC, SUNDIAL) still verify,
 * tearing really happened, and the double read caught some; HADES, which has no versions to compare, still
 * verifies because its NIC records a READ's lines before it transfers them (a writer of those lines squashes
 * the reader).
 */
class TornReadsTest {
    /** SmallBank on a hot set still verifies, tearing really happened and the double read ({@code retries}) caught some. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"mvcc, all-onesided, mvcc_read_retries", "mvcc, READ, mvcc_read_retries", "mvcc, READ+LOCK, mvcc_read_retries",
            "sundial, all-onesided, sundial_read_retries", "sundial, READ, sundial_read_retries",
            "sundial, READ+RENEW, sundial_read_retries"})
    void survived(String protocol, String code, String retries) {
        RunResult r = Runs.run(Runs.smallBank("protocol", protocol, "hybrid", code, "faults.torn_reads", true, "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 3.0));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("torn_reads") > 0, "no READ was torn");
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
        assertTrue(r.extra.get(retries) > 0, "the double read never disagreed: " + r.extra);
    }

    /**
     * The long-reader workload stores the writer's id in each record, so a read whose record and version id
     * come from different writes breaks its invariant {@code reads_match_versions} (SmallBank's money
     * invariant does not see a mislabelled read-only access).
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"mvcc, all-onesided", "mvcc, READ", "sundial, all-onesided", "sundial, READ"})
    void readsMatchTheirVersions(String protocol, String code) {
        Object[] more = protocol.equals("mvcc")
                ? new Object[] {"workload.first_cell", 1, "protocol_options.version_slots", 2}
                : new Object[] {"workload.first_cell", 1};
        Object[] base = {"hybrid", code, "faults.torn_reads", true, "coroutines", 4, "workload.sleep_us", 0.0};
        Object[] kv = Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, kv, base.length, more.length);
        RunResult r = Runs.run(LongReaderWorkload.config(protocol, kv));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertEquals(Boolean.TRUE, r.verification.invariants().get("reads_match_versions"));
        assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
    }

    /**
     * HADES's hot SmallBank (3 nodes x 2 threads x 4 coroutines, replication 3, 5% of accounts take 95% of the
     * accesses) under torn READs, both modes in every code: serializable, money conserved, and with a one-sided
     * READ tearing really happened. Once with the profile's tearing (40 ns between words) and once with 2 us
     * between words, where writes do land inside torn READs: the readers must be squashed, never committed.
     */
    @ParameterizedTest(name = "{0} {1} slow={2}")
    @CsvSource({"hades, all-rpc, false", "hades, all-onesided, false", "hades, READ, false", "hades, VALIDATE, false",
            "hades-h, all-rpc, false", "hades-h, all-onesided, false", "hades-h, READ, false", "hades-h, VALIDATE, false",
            "hades, all-onesided, true", "hades, READ, true", "hades-h, all-onesided, true", "hades-h, READ, true"})
    void hadesSquashesTornReaders(String mode, String code, boolean slow, @TempDir Path dir) throws IOException {
        Map<String, Object> config = hadesHotSet(mode, code, "faults.torn_reads", true);
        if (slow) {
            Path profile = dir.resolve("slow-torn.properties");
            Files.writeString(profile, "description=torn READs 2 us apart\nbase=cx4-edr\nfault.torn_line_gap_ns=2000\n");
            Runs.put(config, "profile", profile.toString());
        }
        RunResult r = Runs.run(config);
        assertTrue(r.verification.passed(), mode + " " + code + ": " + r.verification);
        assertTrue(r.commits() > 1000, "too few commits to mean anything: " + r.commits());
        if (code.equals("all-onesided") || code.equals("READ")) {
            assertTrue(r.extra.get("torn_reads") > 0, "no READ was torn: " + r.extra);
            if (slow) assertTrue(r.extra.get("torn_reads_observed") > 0, "no torn READ overlapped a write: " + r.extra);
        }
    }

    /** HADES posts no NIC CAS/FAA, so incoherent NIC atomics cannot touch it: both modes verify in every code. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"hades, all-rpc", "hades, all-onesided", "hades, READ", "hades, VALIDATE",
            "hades-h, all-rpc", "hades-h, all-onesided", "hades-h, READ", "hades-h, VALIDATE"})
    void hadesUnderIncoherentAtomics(String mode, String code) {
        RunResult r = Runs.run(hadesHotSet(mode, code, "faults.incoherent_atomics", true));
        assertTrue(r.verification.passed(), mode + " " + code + ": " + r.verification);
        assertEquals(0, r.network.cas + r.network.faa, "HADES posted NIC atomics");
    }

    private static Map<String, Object> hadesHotSet(String mode, String code, Object... faults) {
        Map<String, Object> m = Runs.smallBank("protocol", "hades", "protocol_options.mode", mode, "hybrid", code,
                "nodes", 3, "threads", 2, "coroutines", 4, "replication", 3, "workload.accounts_per_thread", 200,
                "workload.hot_fraction", 0.05, "workload.hot_probability", 0.95, "warmup_ms", 1.0, "duration_ms", 5.0,
                "seed", 1);
        return SmallRuns.set(m, faults);
    }
}
