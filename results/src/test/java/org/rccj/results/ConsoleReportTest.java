package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunResult;

class ConsoleReportTest {
    private static String print(RunResult r) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        ConsoleReport.print(r, new PrintStream(buf, true, StandardCharsets.UTF_8));
        return buf.toString(StandardCharsets.UTF_8);
    }

    private static void has(String text, String... parts) {
        for (String p : parts) assertTrue(text.contains(p), "missing '" + p + "' in:\n" + text);
    }

    @Test
    void showsTheKeyFigures() {
        String t = print(SampleResults.sample("sim"));
        has(t, "fakeproto", "hybrid READ+COMMIT (18)", "fakewl", "sim (cx4-edr)", "3 nodes x 2 threads x 4 coroutines",
                "50.0 K/s", "(50000.0 tps)", "1,000", "aborts 50", "4.76%",
                "lock_conflict 20 (40.00%)", "validation 30 (60.00%)",
                "mean 14.00", "max 20.00",
                "deposit", "transfer", "30.0 K/s", "20.0 K/s",
                "READ (1-sided)", "LOCK (rpc)", "COMMIT (1-sided)", "EXECUTE", "54.5%",
                "read 3,000", "rpc 1,200", "doorbells 2,500", "1.23 MB",
                "node0 87.50%", "node2 33.33%",
                "serializable: yes (12345 txns checked); invariants: total_money ok",
                "fallback_rate 0.125000", "987,654 events");
    }

    @Test
    void showsAnomaliesAndFailedInvariants() {
        RunResult r = SampleResults.sample("local");
        List<String> anomalies = new ArrayList<>();
        for (int i = 0; i < 12; i++) anomalies.add("cycle T" + i + " -> T" + (i + 1) + " -> T" + i);
        r.verification = new RunResult.Verification(true, false, 99, anomalies, Map.of("total_money", false));
        String t = print(r);
        has(t, "serializable: NO (99 txns checked, 12 anomalies); invariants: total_money FAILED",
                "anomaly: cycle T0 -> T1 -> T0", "... and 2 more anomalies");
        assertTrue(!t.contains("T11 -> T12"));
        assertTrue(!t.contains("events in"), "no simulator line on local");
    }

    @Test
    void verificationOff() {
        RunResult r = SampleResults.sample("sim");
        r.verification = RunResult.Verification.notChecked();
        has(print(r), "verification  off");
    }

    @Test
    void humanNumbers() {
        assertEquals("1.23 M/s", ConsoleReport.human(1_234_567, "/s"));
        assertEquals("999 /s", ConsoleReport.human(999, "/s"));
        assertEquals("1.00 K/s", ConsoleReport.human(999.7, "/s"));
        assertEquals("12.3 K/s", ConsoleReport.human(12_345, "/s"));
        assertEquals("0.50 /s", ConsoleReport.human(0.5, "/s"));
        assertEquals("2.50 GB", ConsoleReport.human(2.5e9, "B"));
        assertEquals("512 B", ConsoleReport.human(512, "B"));
    }

    /** A count in `extra` prints as a whole number whatever its size (it printed 32094.0 beside 148178 before). */
    @Test
    void extraCountsAreWholeNumbersAndRatesKeepTheirDigits() {
        assertEquals("32094", ConsoleReport.extraValue(32094.0));
        assertEquals("148178", ConsoleReport.extraValue(148178.0));
        assertEquals("39", ConsoleReport.extraValue(39.0));
        assertEquals("0.960413", ConsoleReport.extraValue(0.9604131));
        assertEquals("0.125000", ConsoleReport.extraValue(0.125));
        assertEquals("-", ConsoleReport.extraValue(null));
    }
}
