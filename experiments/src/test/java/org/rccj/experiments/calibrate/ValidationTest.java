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
    private static RunMetrics m(double tput, double readUs, double lockUs) { return m(tput, readUs, lockUs, List.of(), 1); }

    /** A run whose code binds {@code onesided} one-sided; EXECUTE (no hybrid bit) takes {@code executeUs}. */
    private static RunMetrics m(double tput, double readUs, double lockUs, List<String> onesided, double executeUs) {
        Map<String, RunMetrics.StageFigures> st = new java.util.LinkedHashMap<>();
        st.put("READ", new RunMetrics.StageFigures(1000, readUs));
        st.put("LOCK", new RunMetrics.StageFigures(500, lockUs));
        st.put("EXECUTE", new RunMetrics.StageFigures(1000, executeUs));
        return RunMetrics.builder().dir(Path.of("x")).name("x").protocol("occ").workload("smallbank").fabric("f").seed(1)
                .onesided(onesided).commits(1000).throughputTps(tput).latencyMeanUs(10).latencyP50Us(9).latencyP90Us(12)
                .latencyP99Us(20).abortRate(0.01).stages(st).build();
    }

    private static final List<String> BOTH = List.of("READ", "LOCK");

    private static String printed(Validation v) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        v.print(new PrintStream(b, true, StandardCharsets.UTF_8));
        return b.toString(StandardCharsets.UTF_8);
    }

    @Test
    void stagesNoCodeChangesAreNotRankedAndTheOutputEndsWithAVerdict() {
        // EXECUTE differs between the codes (noise) but no hybrid bit binds it: it has no winner
        Validation v = new Validation(List.of(
                new Validation.Pair("a-rpc", "A", "all-rpc", 1, m(100, 5, 2, List.of(), 1.0), m(90, 5, 2, List.of(), 2.0)),
                new Validation.Pair("a-one", "A", "all-onesided", 1, m(200, 3, 1, BOTH, 2.0), m(180, 3, 1, BOTH, 1.0)),
                new Validation.Pair("a-read", "A", "READ", 1, m(150, 3, 2, List.of("READ"), 1.5), m(140, 3, 2, List.of("READ"), 1.5))));
        Validation.Winner w = v.winners().get(0);
        assertFalse(w.stages().containsKey("EXECUTE"), "EXECUTE is no code's to win: " + w.stages().keySet());
        assertTrue(w.stages().containsKey("READ") && w.stages().containsKey("LOCK"));
        assertEquals(3, v.orderedAlike()[1], "three codes: three pairs");
        assertEquals(3, v.orderedAlike()[0], "all ordered alike");
        String out = printed(v);
        String last = out.strip().lines().reduce((a, b) -> b).orElseThrow();
        // agreeing, but one point on made-up runs without a window: too little for a yes
        assertTrue(last.startsWith("verdict: trust the sim's ranking of codes here: not shown, because the data are too few or too noisy: 1 point"
                + " (needed: 2)"), last);
        assertTrue(last.contains("what they show: the winning code agrees in 1 of 1 points, 3 of 3 code pairs are ordered alike"), last);

        // the sim picks RPC where the real runs pick one-sided: no, and why
        Validation bad = new Validation(List.of(
                new Validation.Pair("a-rpc", "A", "all-rpc", 1, m(100, 5, 2, List.of(), 1), m(300, 5, 2, List.of(), 1)),
                new Validation.Pair("a-one", "A", "all-onesided", 1, m(200, 3, 1, BOTH, 1), m(100, 3, 1, BOTH, 1))));
        String badLast = printed(bad).strip().lines().reduce((a, b) -> b).orElseThrow();
        assertTrue(badLast.startsWith("verdict: trust the sim's ranking of codes here: no, because the winning code agrees in 0 of 1 points"), badLast);
        assertTrue(badLast.contains("its absolute throughputs are off by 125% on average"), badLast);

        // one code per point: nothing to rank
        Validation none = new Validation(List.of(new Validation.Pair("a", "A", "all-rpc", 1, m(100, 5, 2), m(100, 5, 2))));
        assertTrue(printed(none).contains("verdict: trust the sim's ranking of codes here: cannot say, because no point ran two or more"), printed(none));
    }

    /** A real or sim run of {@code ms} ms with the given warnings. */
    private static RunMetrics w(double tput, List<String> onesided, double ms, List<String> warnings) {
        Map<String, RunMetrics.StageFigures> st = new java.util.LinkedHashMap<>();
        st.put("READ", new RunMetrics.StageFigures(1000, onesided.isEmpty() ? 5 : 3));
        com.fasterxml.jackson.databind.node.ObjectNode config = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        config.put("duration_ms", ms);
        return RunMetrics.builder().name("x").protocol("occ").workload("smallbank").fabric("f").seed(1).onesided(onesided).config(config)
                .commits(1000).throughputTps(tput).latencyMeanUs(10).latencyP50Us(9).latencyP90Us(12).latencyP99Us(20).abortRate(0.01)
                .stages(st).warnings(warnings).build();
    }

    private static String verdict(Validation v) { return printed(v).strip().lines().reduce((a, b) -> b).orElseThrow(); }

    /** A yes needs enough points, pairs and steady windows; the verdict says what it rests on and the rule is printed. */
    @Test
    void aYesRestsOnEnoughSteadyData() {
        List<String> one = List.of("READ");
        java.util.function.BiFunction<Double, List<String>, List<Validation.Pair>> points = (ms, warn) -> {
            List<Validation.Pair> l = new java.util.ArrayList<>();
            for (String pt : List.of("A", "B")) {
                l.add(new Validation.Pair(pt + "-rpc", pt, "all-rpc", 1, w(100, List.of(), ms, warn), w(110, List.of(), ms, List.of())));
                l.add(new Validation.Pair(pt + "-one", pt, "READ", 1, w(200, one, ms, List.of()), w(190, one, ms, List.of())));
                l.add(new Validation.Pair(pt + "-two", pt, "LOCK", 1, w(150, one, ms, List.of()), w(140, one, ms, List.of())));
            }
            return l;
        };
        String yes = verdict(new Validation(points.apply(2000.0, List.of())));
        assertTrue(yes.startsWith("verdict: trust the sim's ranking of codes here: yes, because the winning code agrees in 2 of 2 points"), yes);
        assertTrue(yes.endsWith("it rests on 2 points with two or more codes (6 codes), 6 real runs, shortest real window 2.00 s, 0 real runs"
                + " unsteady within its window"), yes);
        assertTrue(printed(new Validation(points.apply(2000.0, List.of()))).contains("rule: yes only when every point's winning code agrees"));

        String shortWindows = verdict(new Validation(points.apply(300.0, List.of())));
        assertTrue(shortWindows.contains("not shown, because the data are too few or too noisy: real windows of 0.30 s (needed: 1 s"), shortWindows);

        String unsteady = "throughput varies by 45% (coefficient of variation of the 20 timeline intervals, bound 15%) within the window";
        Validation noisy = new Validation(points.apply(2000.0, List.of(unsteady)));
        assertTrue(verdict(noisy).contains("not shown, because the data are too few or too noisy: 2 real runs whose throughput varied by more"), verdict(noisy));
        assertTrue(printed(noisy).contains("warning (2 of 6 real runs): " + unsteady), printed(noisy));
        assertTrue(printed(noisy).contains("host load: not recorded by the real runs"), printed(noisy));

        // one point of two codes (issue 42: "yes" from 2 codes and a 105% error): not shown, and why
        List<Validation.Pair> tiny = List.of(
                new Validation.Pair("a", "A", "all-rpc", 1, w(100, List.of(), 2000, List.of()), w(205, List.of(), 2000, List.of())),
                new Validation.Pair("b", "A", "READ", 1, w(200, one, 2000, List.of()), w(410, one, 2000, List.of())));
        String t = verdict(new Validation(tiny));
        assertTrue(t.contains("not shown, because the data are too few or too noisy: 1 point (needed: 2), 1 code pair (needed: 3),"
                + " a mean throughput error of 105% (at most 50%: recalibrate)"), t);
    }

    @Test
    void winnersAgreementAndErrorFollowTheFigures() {
        Validation v = new Validation(List.of(
                // point A: real says one-sided wins (200 > 100), sim says RPC (150 > 100)
                new Validation.Pair("a-rpc", "A", "all-rpc", 1, m(100, 5, 2), m(150, 4, 2)),
                new Validation.Pair("a-one", "A", "all-onesided", 1, m(200, 3, 6, BOTH, 1), m(100, 5, 1, BOTH, 1)),
                // point B: both say RPC
                new Validation.Pair("b-rpc", "B", "all-rpc", 1, m(300, 1, 1), m(300, 1, 1)),
                new Validation.Pair("b-one", "B", "all-onesided", 1, m(100, 2, 2, BOTH, 1), m(200, 2, 2, BOTH, 1))));
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
