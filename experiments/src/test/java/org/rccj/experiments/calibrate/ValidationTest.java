package org.rccj.experiments.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rccj.results.RunMetrics;

/** The comparison itself on made-up figures: winners per point and per stage, their agreement, the mean error. */
class ValidationTest {
    private static RunMetrics m(double tput, double readUs, double lockUs) {
        return new RunMetrics(Path.of("x"), "x", "occ", "smallbank", "f", 1, 0, List.of(), null, 1000, tput, 10, 9, 12, 20, 0.01,
                Map.of("READ", new RunMetrics.StageFigures(1000, readUs), "LOCK", new RunMetrics.StageFigures(500, lockUs)), false, false);
    }

    @Test
    void winnersAgreementAndErrorFollowTheFigures() {
        Validation v = new Validation(List.of(
                // point A: real says one-sided wins (200 > 100), sim says RPC (150 > 100)
                new Validation.Pair("a-rpc", "A", "all-rpc", 1, m(100, 5, 2), m(150, 4, 2)),
                new Validation.Pair("a-one", "A", "all-onesided", 1, m(200, 3, 6), m(100, 5, 1)),
                // point B: both say RPC
                new Validation.Pair("b-rpc", "B", "all-rpc", 1, m(300, 1, 1), m(300, 1, 1)),
                new Validation.Pair("b-one", "B", "all-onesided", 1, m(100, 2, 2), m(200, 2, 2))));
        List<Validation.Winner> w = v.winners();
        assertEquals(2, w.size());
        assertEquals("all-onesided", w.get(0).real());
        assertEquals("all-rpc", w.get(0).sim());
        assertFalse(w.get(0).agree());
        assertTrue(w.get(1).agree());
        // READ per commit in A: real one-sided 3 < 5, sim RPC 4 < 5; LOCK (500 of 1000 commits): real RPC 1 < 3, sim one-sided 0.5 < 1
        assertEquals("all-onesided", w.get(0).stages().get("READ")[0]);
        assertEquals("all-rpc", w.get(0).stages().get("READ")[1]);
        assertEquals("all-rpc", w.get(0).stages().get("LOCK")[0]);
        assertEquals("all-onesided", w.get(0).stages().get("LOCK")[1]);
        // |1.5-1| + |0.5-1| + 0 + |2-1| over 4 runs
        assertEquals(0.5, v.meanAbsThroughputError(), 1e-12);
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        v.print(new PrintStream(b, true, StandardCharsets.UTF_8));
        String out = b.toString(StandardCharsets.UTF_8);
        assertTrue(out.contains("winners agree in 1 of 2 points"), out);
        assertTrue(out.contains("mean absolute throughput error |sim/real - 1| over 4 runs: 50.0%"), out);
        assertTrue(v.csv().contains("\"a-rpc\",\"A\",\"all-rpc\",1,throughput_tps,100.000,150.000,1.50000"), v.csv());
    }
}
