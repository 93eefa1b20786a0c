package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;

class LatencyLogTest {
    @Test
    void hlogBesideSummaryReadsBackWithHdrHistogramsOwnReader(@TempDir Path tmp) throws Exception {
        RunResult r = SampleResults.sample("sim");
        for (int i = 1; i <= 1000; i++) r.total.latency.record(1000L * i); // 1..1000 us
        Path dir = ResultWriter.write(r, tmp.resolve("run"));
        Path log = dir.resolve(LatencyLog.FILE_NAME);
        String text = Files.readString(log);
        assertTrue(text.contains("#[Histogram log format version 1.3]"), text);
        assertTrue(!text.contains("#[StartTime"), "no wall-clock start time: the file is deterministic");

        List<LatencyLog.Entry> entries = LatencyLog.read(log);
        Histogram txns = LatencyLog.transactions(dir);
        assertNotNull(txns);
        assertEquals(r.total.latency.count(), txns.getTotalCount());
        // the log holds the very histogram summary.json's percentiles come from
        assertEquals(r.total.latency.toHdr().getValueAtPercentile(99), txns.getValueAtPercentile(99));
        int tagged = 0;
        for (LatencyLog.Entry e : entries) {
            if (e.tag() == null) continue;
            tagged++;
            long expected = e.tag().equals(StageBreakdown.EXECUTE) ? r.execute.count() : r.stages.get(Stage.valueOf(e.tag())).count();
            assertEquals(expected, e.histogram().getTotalCount(), e.tag());
        }
        long nonEmpty = r.stages.values().stream().filter(h -> h.count() > 0).count() + (r.execute.count() > 0 ? 1 : 0);
        assertEquals(nonEmpty, tagged, "one tagged histogram per stage that ran");
        assertEquals(LatencyLog.text(r), LatencyLog.text(r), "same result, same bytes");
    }
}
