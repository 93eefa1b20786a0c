package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.rccj.testkit.Charts;

class PlotsTest {
    @TempDir Path dir;

    /** A decoded PNG that is at least w x h, has drawn content (not one flat colour) and several colours. */
    static BufferedImage assertChart(Path png, int minWidth, int minHeight, int minColours) throws IOException {
        assertTrue(Files.size(png) > 5_000, png + " is " + Files.size(png) + " bytes");
        return Charts.assertPng(png, minWidth, minHeight, minColours);
    }

    static void assertSvg(Path svg) throws IOException { Charts.assertSvg(svg); }

    @Test
    void stageBreakdownHasOneColourPerStage() throws Exception {
        List<String> stages = List.of("READ", "LOCK", "COMMIT", "EXECUTE");
        double[][] us = {{2, 4, 6, 0}, {1, 2, 3, 0}, {3, 1, 2, 0}};
        CategoryChart chart = Plots.stageBreakdownChart("Stage latency", "code", List.of("0", "18", "63"), stages, us);
        assertEquals(List.of("READ", "LOCK", "COMMIT"), List.copyOf(chart.getSeriesMap().keySet()),
                "one series per stage; EXECUTE, which never took time, is left out");
        assertTrue(chart.getStyler().isStacked());
        assertEquals("stage latency, mean (us), stacked", chart.getYAxisTitle());
        Plots.Saved s = Plots.save(chart, dir, "bd");
        assertEquals(dir.resolve("bd.png"), s.png());
        assertChart(s.png(), 800, 500, 4);
        assertSvg(s.svg());
        assertThrows(IllegalArgumentException.class, () -> Plots.stageBreakdown("t", "x", List.of(), stages, new double[0][], dir, "e"));
    }

    @Test
    void scatterMarksPureAndBestCodes() throws Exception {
        List<HybridScatter.Point> pts = new ArrayList<>();
        for (int c = 0; c < 16; c++) {
            HybridScatter.Kind k = c == 0 ? HybridScatter.Kind.ALL_RPC : c == 15 ? HybridScatter.Kind.ALL_ONESIDED : c == 9 ? HybridScatter.Kind.BEST : HybridScatter.Kind.CODE;
            pts.add(new HybridScatter.Point(c, "c" + c, c == 9 ? 2e6 : 1e6 + c * 5e4, 20 - c * 0.5, k));
        }
        XYChart chart = HybridScatter.chart("Hybrid codes", pts);
        assertEquals(List.of("Pareto front (labelled)", "other hybrid codes", "all-rpc (code 0)", "all-onesided (code 15)", "best: code 9 (c9)"),
                List.copyOf(chart.getSeriesMap().keySet()), "the legend names the marked codes");
        assertEquals(13, chart.getSeriesMap().get("other hybrid codes").getXData().length);
        assertEquals("throughput (M txns/s)", chart.getXAxisTitle(), "unit from the values");
        assertEquals("latency, mean (us)", chart.getYAxisTitle());
        assertEquals(2.0, chart.getSeriesMap().get("best: code 9 (c9)").getXData()[0], 1e-12, "scaled to M txns/s");
        Plots.Saved s = Plots.save(chart, dir, "sc");
        assertChart(s.png(), 800, 500, 5);

        // when a pure code is the fastest it keeps its own marker and legend entry
        List<HybridScatter.Point> pure = List.of(new HybridScatter.Point(0, "all-rpc", 1e5, 30, HybridScatter.Kind.ALL_RPC),
                new HybridScatter.Point(5, "x", 2e5, 20, HybridScatter.Kind.CODE), new HybridScatter.Point(7, "y", 3e5, 10, HybridScatter.Kind.ALL_ONESIDED));
        assertEquals(List.of("other hybrid codes", "all-rpc (code 0)", "all-onesided (code 7), the best"),
                List.copyOf(HybridScatter.chart("t", pure).getSeriesMap().keySet()));
        assertSvg(s.svg());
    }

    @Test
    void linesWithAndWithoutCategories() throws Exception {
        List<Plots.Line> lines = List.of(
                new Plots.Line("occ all-rpc", List.of(1.0, 3.0, 5.0), List.of(1.0, 2.0, 2.5), List.of(0.1, 0.2, 0.1)),
                new Plots.Line("occ all-onesided", List.of(1.0, 3.0, 5.0), List.of(1.5, 2.8, 3.9), null));
        Plots.Saved s = Plots.lines("Throughput vs coroutines", "coroutines", "throughput (M txns/s)", lines, null, dir, "ln");
        assertChart(s.png(), 800, 500, 4);
        XYChart cat = Plots.linesChart("Throughput vs mix", "mix", "throughput (M txns/s)",
                List.of(new Plots.Line("occ", List.of(0.0, 1.0), List.of(1.0, 2.0), null)), List.of("standard", "uniform"));
        assertEquals("uniform", cat.getStyler().getxAxisTickLabelsFormattingFunction().apply(1.0), "category names on the axis");
        assertEquals("", cat.getStyler().getxAxisTickLabelsFormattingFunction().apply(0.5));
        Plots.Saved c = Plots.save(cat, dir, "cat");
        assertChart(c.png(), 800, 500, 3);
    }

    @Test
    void figuresFromASweepTable() throws Exception {
        String csv = "point,coroutines,protocol,hybrid,runs,throughput_tps,throughput_tps_ci95,latency_mean_us,latency_mean_us_ci95,"
                + "READ_mean_us,READ_mean_us_ci95,LOCK_mean_us,LOCK_mean_us_ci95\n"
                + "\"coroutines=1\",1,occ,all-rpc,2,100000.0,5000.0,10.0,0.5,2.0,0.1,3.0,0.1\n"
                + "\"coroutines=2\",2,occ,all-rpc,2,180000.0,6000.0,11.0,0.5,2.5,0.1,3.5,0.1\n"
                + "\"coroutines=4\",4,occ,all-rpc,2,300000.0,7000.0,13.0,0.5,3.0,0.1,4.0,0.1\n";
        List<Figures.Figure> figs = Figures.sweepTable(CsvTable.parse(csv, "sweep.csv"), "coro", "");
        XYChart tput = (XYChart) figs.get(0).chart();
        assertEquals("Throughput vs coroutines: coro (mean, 95% CI)", tput.getTitle());
        assertEquals("coroutines", tput.getXAxisTitle());
        assertEquals("throughput (K txns/s)", tput.getYAxisTitle());
        assertEquals(List.of("occ all-rpc"), List.copyOf(tput.getSeriesMap().keySet()), "one line per protocol and mode");
        assertEquals(300.0, tput.getSeriesMap().get("occ all-rpc").getYData()[2], 1e-9);
        assertEquals(7.0, tput.getSeriesMap().get("occ all-rpc").getExtraValues()[2], 1e-9, "CI as error bars");
        assertEquals("latency, mean (us)", ((XYChart) figs.get(1).chart()).getYAxisTitle());
        List<Plots.Saved> saved = Figures.save(figs, dir);
        assertEquals(List.of("sweep-throughput.png", "sweep-latency.png", "stage-breakdown.png"),
                saved.stream().map(s -> s.png().getFileName().toString()).toList());
        for (Plots.Saved s : saved) assertChart(s.png(), 800, 500, 3);
    }

    @Test
    void figuresFromAHybridTable() throws Exception {
        StringBuilder csv = new StringBuilder("code,onesided,protocol,workload,runs,throughput_tps,latency_mean_us,READ_mean_us,LOCK_mean_us\n");
        csv.append("0,all-rpc,occ,smallbank,1,100.0,9.0,2.0,3.0\n");
        csv.append("1,LOCK,occ,smallbank,1,120.0,8.0,2.0,2.0\n");
        csv.append("2,READ,occ,smallbank,1,150.0,7.0,1.0,3.0\n");
        csv.append("3,READ+LOCK,occ,smallbank,1,140.0,7.5,1.0,2.0\n");
        // the fastest is code 2; all-onesided is 3 (every stage column's bit)
        List<Figures.Figure> figs = Figures.hybridTable(CsvTable.parse(csv.toString(), "hybrid.csv"), "x-");
        assertEquals(List.of("other hybrid codes", "all-rpc (code 0)", "all-onesided (code 3)", "best: code 2 (READ)"),
                List.copyOf(((XYChart) figs.get(0).chart()).getSeriesMap().keySet()));
        assertEquals("Hybrid codes of occ on smallbank: latency vs throughput (4 codes)", figs.get(0).chart().getTitle());
        List<Plots.Saved> saved = Figures.save(figs, dir);
        assertEquals(dir.resolve("x-hybrid-scatter.png"), saved.get(0).png());
        assertChart(saved.get(0).png(), 800, 500, 5);
        assertChart(saved.get(1).png(), 800, 500, 3);
    }
}
