package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.rccj.framework.run.RunResult;

class CsvWritersTest {
    /** Rows of a CSV, each split on commas, checking every row has as many columns as the header. */
    static List<String[]> parse(String csv) {
        List<String[]> rows = csv.lines().map(l -> l.split(",", -1)).toList();
        for (String[] row : rows) assertEquals(rows.get(0).length, row.length, "columns in " + String.join(",", row));
        return rows;
    }

    @Test
    void stagesCsv() {
        org.rccj.framework.run.RunResult sample = SampleResults.sample("sim");
        // a run's per-transaction accounting (the stand-in has none of its own): all stage time in committed attempts
        for (org.rccj.framework.stats.Histogram h : sample.stages.values()) sample.committedStageNs += h.sum();
        List<String[]> rows = parse(StagesCsv.toCsv(sample));
        assertEquals(StagesCsv.HEADER, String.join(",", rows.get(0)));
        assertEquals(11, rows.size());
        assertEquals(List.of("READ", "LOCK", "COMMIT", "EXECUTE"), rows.subList(1, 5).stream().map(r -> r[0]).toList());
        assertEquals(List.of("outside:execute", "outside:between_stages", "outside:aborted_attempts", "outside:backoff",
                "outside:rolled_back_transactions", "outside:window_edges"), rows.subList(5, 11).stream().map(r -> r[0]).toList());
        for (String[] r : rows.subList(5, 11)) {
            assertEquals(1000, Long.parseLong(r[1]), "count = commits");
            assertEquals(r[2], r[3], "mean_us = us_per_txn: the part per committed transaction");
            assertEquals("", r[4] + r[5] + r[6]);
        }
        String[] lock = rows.get(2);
        assertEquals(500, Long.parseLong(lock[1]));
        assertEquals(4.0, Double.parseDouble(lock[2]), "per call");
        assertEquals("us_per_txn", rows.get(0)[3]);
        assertEquals(2.0, Double.parseDouble(lock[3]), "per committed transaction: 500 x 4 us / 1000 commits");
        double shares = 0;
        for (String[] r : rows.subList(1, 5)) {
            for (int i = 1; i < 7; i++) if (!(i == 3 && r[0].equals("EXECUTE"))) Double.parseDouble(r[i]);
            for (int i = 7; i < r.length; i++) assertEquals("", r[i], "no critical paths in the stand-in: empty cp_* cells");
            shares += Double.parseDouble(r[6]);
        }
        assertEquals(1.0, shares, 1e-5);
        assertEquals("", rows.get(4)[3], "EXECUTE counted once: its time per transaction is outside:execute's");
    }

    @Test
    void timelineCsv() {
        List<String[]> rows = parse(TimelineCsv.toCsv(SampleResults.sample("sim")));
        assertEquals(TimelineCsv.HEADER, String.join(",", rows.get(0)));
        assertEquals(5, rows.size());
        assertEquals("5.0", rows.get(1)[0]);
        assertEquals("240", rows.get(1)[1]);
        assertEquals(48000.0, Double.parseDouble(rows.get(1)[2]));
        assertEquals("20.0", rows.get(4)[0]);
    }

    @Test
    void emptyTimelineIsJustTheHeader() {
        RunResult r = new RunResult();
        r.config = SampleResults.config("local", false);
        assertEquals(TimelineCsv.HEADER + "\n", TimelineCsv.toCsv(r));
        assertEquals(StagesCsv.HEADER + "\n", StagesCsv.toCsv(r));
    }
}
