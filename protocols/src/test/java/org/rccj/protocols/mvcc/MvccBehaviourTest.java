package org.rccj.protocols.mvcc;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.ConfigResolver;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.LongReaderWorkload;
import org.rccj.protocols.Runs;

/**
 * MVCC's defining behaviour on a scripted conflict (workload long-reader): a reader that sleeps between its
 * two reads, while writers install newer versions of the second cell, is served an older version instead
 * of aborting — and the run stays serializable.
 */
class MvccBehaviourTest {
    private static RunResult slowReader(String code, int slots, int firstCell) { return slowReader(code, slots, firstCell, 20.0); }

    private static RunResult slowReader(String code, int slots, int firstCell, double sleepUs) {
        return Runs.run(LongReaderWorkload.config("mvcc", "hybrid", code, "workload.sleep_us", sleepUs,
                "workload.first_cell", firstCell, "protocol_options.version_slots", slots));
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void slowReaderIsServedAnOlderVersion(String code) {
        // a 10 us sleep: with passive RPC commits (no reply awaited) the writers of all-rpc install more than four
        // versions in 20 us, so the reader's version is recycled as often as it is missing with one slot
        RunResult four = slowReader(code, 4, 0, 10.0);
        assertTrue(four.verification.passed(), four.verification.toString());
        assertTrue(four.extra.get("mvcc_reads_older_version") > 0, "no read was served from an older slot: " + four.extra);
        long readerCommits = four.perType.get("LongRead").commits;
        assertTrue(readerCommits > 0, "the slow reader never committed");

        // the same script with one version per tuple: the reader finds no version old enough and aborts
        RunResult one = slowReader(code, 1, 0, 10.0);
        assertTrue(one.verification.passed(), one.verification.toString());
        assertEquals(0.0, one.extra.get("mvcc_reads_older_version"));
        assertTrue(one.abortReasons.getOrDefault("no_version", 0L) > 0, "one slot: expected no_version aborts " + one.abortReasons);
        assertTrue(readerCommits > one.perType.get("LongRead").commits,
                "older versions did not help the reader: " + readerCommits + " vs " + one.perType.get("LongRead").commits);
        assertTrue(four.perType.get("LongRead").aborts < one.perType.get("LongRead").aborts, "reader aborts, four slots "
                + four.perType.get("LongRead").aborts + " " + four.abortReasons + ", one slot " + one.perType.get("LongRead").aborts + " " + one.abortReasons);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void slowReaderOfAWrittenCellStaysSerializable(String code) {
        RunResult r = slowReader(code, 4, 1);
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.perType.get("LongRead").commits > 0);
        assertTrue(r.perType.get("Move").commits > 0);
    }

    /** The script above is sharp: the same run with reads that do not raise rts is caught by the checker. */
    @ParameterizedTest
    @ValueSource(strings = {"all-rpc", "all-onesided"})
    void withoutRtsRaiseTheCheckerFindsACycle(String code) {
        // writers lock at access; a writer that waits 5 us after taking its timestamp locks cell 1 after a
        // younger reader read it, which only the reader's rts raise can show to the writer's W1 check
        RunResult r = Runs.run(LongReaderWorkload.config("mvcc-nortsraise", "hybrid", code, "workload.sleep_us", 20.0,
                "workload.first_cell", 1, "workload.write_delay_us", 5.0));
        assertTrue(r.verification.checked());
        assertFalse(r.verification.serializable(), code + ": reads without rts raise went unnoticed");
        assertTrue(r.verification.anomalies().stream().anyMatch(a -> a.startsWith("cycle")), r.verification.anomalies().toString());
    }

    @Test
    void versionSlotsOutOfRangeIsABadConfig() {
        for (int bad : new int[] {0, MvccSettings.MAX_SLOTS + 1}) {
            ConfigException e = assertThrows(ConfigException.class,
                    () -> ConfigResolver.resolve(Runs.smallBank("protocol", "mvcc", "protocol_options.version_slots", bad)));
            assertTrue(e.getMessage().contains("protocol_options.version_slots"), e.getMessage());
        }
        Config ok = ConfigResolver.resolve(Runs.smallBank("protocol", "mvcc", "protocol_options.version_slots", 2));
        assertEquals(2, ok.protocolOptions().get("version_slots"));
        assertEquals(4, ConfigResolver.resolve(Runs.smallBank("protocol", "mvcc")).protocolOptions().get("version_slots"));
    }

    @Test
    void simRunsAreDeterministic() { Runs.assertDeterministic(Runs.smallBank("protocol", "mvcc", "workload.hot_probability", 0.9)); }
}
