package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.api.Stage;
import org.rccj.framework.stats.Histogram;
import org.rccj.testkit.SvgFigure;

/**
 * Every stage figure draws the time outside stages as its own segments, so that each bar, read back from the saved
 * SVG, adds up to the run's mean latency; the legend says only what is true of the runs drawn.
 */
class StageFiguresAddUpTest {
    @TempDir Path dir;

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The sample run (mean latency 14 us; stages 2 + 2 + COMMIT + 1 us per commit); {@code commitNs} per COMMIT. */
    private Path run(String name, long commitNs, boolean passiveAck, Map<String, Double> outsideParts) throws Exception {
        RunResult r = SampleResults.sample("sim");
        Histogram commit = new Histogram();
        for (int i = 0; i < 1000; i++) commit.record(commitNs);
        r.stages.put(Stage.COMMIT, commit);
        Path d = ResultWriter.write(r, dir.resolve(name));
        ObjectNode tree = (ObjectNode) JSON.readTree(d.resolve("summary.json").toFile());
        ((ObjectNode) tree.get("config")).put("passive_ack", passiveAck);
        tree.remove("outside_stages"); // the sample has no per-commit accounting: a result written before the field, unless given
        if (outsideParts != null) {
            ObjectNode o = tree.putObject("outside_stages");
            double sum = 0;
            ObjectNode parts = o.putObject("parts");
            for (Map.Entry<String, Double> e : outsideParts.entrySet()) {
                parts.put(e.getKey(), e.getValue());
                sum += e.getValue();
            }
            o.put("us_per_txn", sum);
        }
        JSON.writeValue(d.resolve("summary.json").toFile(), tree);
        return d;
    }

    private static SvgFigure breakdown(List<Figures.Figure> figs, Path out) throws Exception {
        for (Plots.Saved s : Figures.save(figs, out)) {
            if (s.svg().getFileName().toString().equals("stage-breakdown.svg")) return SvgFigure.read(s.svg());
        }
        throw new AssertionError("no stage-breakdown among " + figs.stream().map(Figures.Figure::base).toList());
    }

    @Test
    void runBarsSumToTheMeanLatencyWithTheTimeOutsideStagesAsItsOwnSegment() throws Exception {
        List<RunMetrics> runs = List.of(RunMetrics.read(run("a", 6_000, false, null)), RunMetrics.read(run("b", 20, false, null)));
        SvgFigure f = breakdown(Figures.runs(runs, ""), dir.resolve("plots"));
        SvgFigure.Panel p = f.panels().get(0);
        assertTrue(p.series().containsKey(OutsideStages.DERIVED), "a segment for the time outside stages: " + p.series().keySet());
        assertTrue(f.legend().contains(OutsideStages.DERIVED), f.legend().toString());
        assertEquals(2, p.barTotals().size());
        for (Map.Entry<String, Double> bar : p.barTotals().entrySet()) {
            assertEquals(14.0, bar.getValue(), 0.01, bar.getKey() + ": a bar adds up to the mean latency (14 us)");
        }
        // run b: stages 2 + 2 + 0.02 + 1 = 5.02 us; the rest (8.98 us) outside stages, not hidden
        assertEquals(8.98, p.series().get(OutsideStages.DERIVED).get(1).y(), 0.01);
        assertTrue(p.yAxis().contains("bar = mean latency"), p.yAxis());
        // COMMIT ~0 on one bar, but passive_ack is off: the legend says nothing about passive ACK
        for (String l : f.legend()) assertFalse(l.contains("passive ACK"), "passive_ack is false: " + f.legend());
        assertTrue(f.legend().contains("COMMIT"), f.legend().toString());
    }

    @Test
    void passiveAckNoteOnlyWhenEveryRunDrawnHasIt() throws Exception {
        List<RunMetrics> runs = List.of(RunMetrics.read(run("a", 6_000, true, null)), RunMetrics.read(run("b", 20, true, null)));
        SvgFigure f = breakdown(Figures.runs(runs, ""), dir.resolve("plots"));
        assertTrue(f.legend().contains("COMMIT (~0: passive ACK)"), f.legend().toString());
    }

    /** Issue 42: a negative part (rolled-back transactions' stage time) is folded into the stages, not drawn below zero. */
    @Test
    void aNegativePartIsFoldedSoTheBarsTopIsTheMeanLatency() throws Exception {
        Map<String, Double> parts = new java.util.LinkedHashMap<>();
        parts.put("aborted_attempts", 1.25);
        parts.put("between_stages", 2.75);
        parts.put("rolled_back_transactions", -1.0);
        RunMetrics m = RunMetrics.read(run("a", 6_000, false, parts));
        SvgFigure f = breakdown(Figures.runs(List.of(m), ""), dir.resolve("neg"));
        SvgFigure.Panel p = f.panels().get(0);
        double top = 0;
        for (List<SvgFigure.Point> pts : p.series().values()) {
            for (SvgFigure.Point pt : pts) {
                assertTrue(pt.y() >= 0, "no segment below zero: " + p.series());
                top += pt.y();
            }
        }
        assertEquals(14.0, top, 0.01, "the top of the bar is the mean latency");
        assertFalse(p.series().containsKey("rolled back transactions"), p.series().keySet().toString());
        assertTrue(f.title().contains("[stages net of rolled back transactions: <= 1.00 us/txn, in proportion]"), f.title());
    }

    @Test
    void summaryPartsAreDrawnOnePerKey() throws Exception {
        // stages 2 + 2 + 6 + 1 = 11 us of 14: the run says where the other 3 us went
        Map<String, Double> parts = new java.util.LinkedHashMap<>();
        parts.put("aborted_attempts", 1.25);
        parts.put("between_stages", 1.75);
        RunMetrics m = RunMetrics.read(run("a", 6_000, false, parts));
        SvgFigure f = breakdown(Figures.runs(List.of(m), ""), dir.resolve("plots"));
        SvgFigure.Panel p = f.panels().get(0);
        assertTrue(f.legend().containsAll(List.of("aborted attempts", "between stages")), f.legend().toString());
        assertFalse(f.legend().contains(OutsideStages.DERIVED), "the parts replace the derived segment: " + f.legend());
        assertEquals(14.0, p.barTotals().values().iterator().next(), 0.01);

        // the same through a table (a sweep of one point): the parts are columns, and the bar still adds up
        String csv = ResultTable.csv(List.of("coroutines"), List.of(new ResultTable.Row(List.of("4"), List.of(m))));
        assertTrue(csv.lines().findFirst().orElseThrow().contains("outside_aborted_attempts_us_per_txn"), csv);
        SvgFigure t = breakdown(Figures.sweepTable(CsvTable.parse(csv, "sweep.csv"), "x", ""), dir.resolve("table"));
        assertEquals(14.0, t.panels().get(0).barTotals().values().iterator().next(), 0.01);
        assertTrue(t.legend().contains("between stages"), t.legend().toString());
    }

    @Test
    void enumerationBarsSumToTheMeanLatencyAndAnExcessIsExplained() throws Exception {
        StringBuilder sb = new StringBuilder("code,onesided,protocol,workload,runs,throughput_tps,latency_mean_us,"
                + "LOCK_mean_us,READ_mean_us,LOCK_us_per_txn,READ_us_per_txn\n");
        // code 3: the stages (aborted attempts included) exceed the mean latency by 0.5 us
        double[][] rows = {{0, 18.70, 2.0, 5.22}, {1, 10.0, 3.0, 4.0}, {2, 12.0, 1.0, 2.0}, {3, 5.0, 3.0, 2.5}};
        for (double[] r : rows) {
            sb.append((int) r[0]).append(",x,drtm,smallbank,1,1000,").append(r[1]).append(",1,1,").append(r[2]).append(',').append(r[3]).append('\n');
        }
        SvgFigure f = breakdown(Figures.hybridTable(CsvTable.parse(sb.toString(), "hybrid.csv"), ""), dir);
        SvgFigure.Panel p = f.panels().get(0);
        List<Double> totals = new ArrayList<>(p.barTotals().values());
        assertEquals(18.70, totals.get(0), 0.01, "all-rpc's bar is its 18.70 us, not the 7.22 us of its stages");
        assertEquals(10.0, totals.get(1), 0.01);
        assertEquals(12.0, totals.get(2), 0.01);
        assertEquals(5.5, totals.get(3), 0.01, "stages over the latency: drawn whole, outside segment 0");
        assertTrue(f.title().contains("[stages > latency by <= 0.50 us on 1 of 4 bars]"), f.title());
        assertTrue(f.legend().isEmpty() || f.legend().contains(OutsideStages.DERIVED), f.legend().toString());
        assertTrue(p.series().containsKey(OutsideStages.DERIVED), p.series().keySet().toString());
    }
}
