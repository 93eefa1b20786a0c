package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;

class ResultTableTest {
    @TempDir Path dir;

    /** The sample run with its throughput scaled (commits x k), read back as RunMetrics. */
    static RunMetrics metrics(int k) {
        RunResult r = SampleResults.sample("sim");
        r.total.commits *= k;
        JsonNode tree = new ObjectMapper().valueToTree(SummaryJson.tree(r));
        return RunMetrics.of(Path.of("run" + k), tree);
    }

    @Test
    void metricsComeFromTheSummary() {
        RunMetrics m = metrics(1);
        assertEquals(50_000.0, m.throughputTps(), "1000 commits in 20 ms");
        assertEquals(14.0, m.latencyMeanUs(), 1e-9, "600 x 10 us + 400 x 20 us");
        assertEquals(18, m.code());
        assertEquals(List.of("READ", "COMMIT"), m.onesided());
        assertEquals(List.of("READ", "LOCK", "COMMIT", "EXECUTE"), List.copyOf(m.stages().keySet()));
        assertEquals(4.0, m.stages().get("LOCK").meanUs());
        assertEquals(2.0, m.stages().get("LOCK").perCommitUs(m.commits()), 1e-12, "500 x 4 us over 1000 commits");
        assertTrue(m.verificationChecked() && m.verificationPassed());
        assertEquals(RunMetrics.configText(SampleResults.sample("sim").config), m.configText(), "config text as resumption compares it");
    }

    @Test
    void singleRunsHaveNoConfidenceColumns() {
        String csv = ResultTable.csv(List.of("point", "coroutines"), List.of(
                new ResultTable.Row(List.of("coroutines=1", "1"), List.of(metrics(1))),
                new ResultTable.Row(List.of("a,b", "2"), List.of(metrics(2)))));
        List<String> lines = csv.lines().toList();
        assertEquals("point,coroutines,runs,throughput_tps,latency_mean_us,latency_p50_us,latency_p90_us,latency_p95_us,latency_p99_us,abort_rate,"
                + "READ_mean_us,LOCK_mean_us,COMMIT_mean_us,EXECUTE_mean_us,READ_us_per_txn,LOCK_us_per_txn,COMMIT_us_per_txn,EXECUTE_us_per_txn,"
                + "READ_p99_us,LOCK_p99_us,COMMIT_p99_us,EXECUTE_p99_us,warnings", lines.get(0));
        assertEquals(3, lines.size());
        assertTrue(lines.get(1).startsWith("coroutines=1,1,1,50000.0,14.0,"), lines.get(1));
        // stage means, per-txn times (LOCK on half the commits), then p99s, by column
        List<String> head = List.of(lines.get(0).split(",")), row = List.of(lines.get(1).split(",", -1));
        String[] cols = {"READ_mean_us", "LOCK_mean_us", "COMMIT_mean_us", "EXECUTE_mean_us", "READ_us_per_txn", "LOCK_us_per_txn",
                "COMMIT_us_per_txn", "EXECUTE_us_per_txn", "READ_p99_us", "LOCK_p99_us", "COMMIT_p99_us", "EXECUTE_p99_us"};
        String[] want = {"2.0", "4.0", "6.0", "1.0", "2.0", "2.0", "6.0", "1.0", "2.0", "4.0", "6.0", "1.0"};
        for (int i = 0; i < cols.length; i++) assertEquals(want[i], row.get(head.indexOf(cols[i])), cols[i] + " in " + lines.get(1));
        assertEquals("", row.get(head.indexOf("warnings")), lines.get(1));
        assertTrue(lines.get(2).startsWith("\"a,b\",2,1,100000.0,"), "a comma is quoted: " + lines.get(2));
        assertTrue(csv.endsWith("\n") && !csv.contains("\r"));
    }

    @Test
    void repeatsGiveMeansAndIntervals() {
        String csv = ResultTable.csv(List.of("code"), List.of(
                new ResultTable.Row(List.of("18"), List.of(metrics(1), metrics(2), metrics(3))),
                new ResultTable.Row(List.of("0"), List.of(metrics(1)))));
        List<String> lines = csv.lines().toList();
        assertTrue(lines.get(0).startsWith("code,runs,throughput_tps,throughput_tps_ci95,latency_mean_us,latency_mean_us_ci95,"), lines.get(0));
        String[] row = lines.get(1).split(",");
        assertEquals("3", row[1]);
        assertEquals("100000.0", row[2], "mean of 50, 100, 150 K");
        double hw = 4.302653 * 50_000 / Math.sqrt(3);
        assertEquals(hw, Double.parseDouble(row[3]), 0.01);
        assertEquals("14.0", row[4]);
        assertEquals("0.0", row[5], "identical latencies: zero width");
        String[] single = lines.get(2).split(",", -1);
        assertEquals("1", single[1]);
        assertEquals("", single[3], "no interval from one run");
    }

    @Test
    void keysMustMatchColumns() {
        assertThrows(IllegalArgumentException.class, () -> ResultTable.csv(List.of("a", "b"),
                List.of(new ResultTable.Row(List.of("x"), List.of(metrics(1))))));
    }

    @Test
    void csvReadsBack() throws Exception {
        String csv = ResultTable.csv(List.of("point", "x"), List.of(
                new ResultTable.Row(List.of("p=\"1\",q", "1"), List.of(metrics(1), metrics(2)))));
        Path f = dir.resolve("t.csv");
        ResultTable.write(f, csv);
        try (var s = Files.list(dir)) {
            assertEquals(List.of("t.csv"), s.map(p -> p.getFileName().toString()).toList(), "no temporary file left");
        }
        CsvTable t = CsvTable.read(f);
        assertEquals(List.of("point", "x"), t.keyColumns());
        assertEquals("p=\"1\",q", t.get(0, "point"));
        assertEquals(75_000.0, t.number(0, "throughput_tps"));
        assertTrue(t.number(0, "throughput_tps_ci95") > 0);
        assertTrue(Double.isNaN(t.number(0, "no_such_column")));
        assertThrows(java.io.IOException.class, () -> CsvTable.parse("a,b\n1\n", "x"));
        assertThrows(java.io.IOException.class, () -> CsvTable.parse("", "x"));
    }

    @Test
    void failedRowsKeepTheirKeysAndReasonAndWarningsAreListed() {
        RunMetrics warned = metrics(1);
        warned = warned.toBuilder().verificationChecked(false).verificationPassed(false).warnings(List.of("only 3 commits"))
                .outsideParts(java.util.Map.of()).build();
        String csv = ResultTable.csv(List.of("point", "coroutines"), List.of(
                new ResultTable.Row(List.of("coroutines=1", "1"), List.of(warned)),
                new ResultTable.Row(List.of("coroutines=2", "2"), List.of(), "out of memory (Java heap space)\nsecond line")));
        List<String> lines = csv.lines().toList();
        assertTrue(lines.get(0).endsWith(",EXECUTE_p99_us,warnings,failed"), lines.get(0));
        assertTrue(lines.get(1).endsWith(",only 3 commits,"), lines.get(1));
        assertTrue(lines.get(2).startsWith("coroutines=2,2,0,,,"), lines.get(2));
        assertTrue(lines.get(2).endsWith(",,out of memory (Java heap space) second line"), lines.get(2));
        assertEquals(lines.get(0).split(",", -1).length, lines.get(2).split(",", -1).length, "a failed row has every column");
    }
}
