package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.testkit.SvgFigure;

/**
 * A sweep over hybrid codes and coroutines is drawn as grouped bars of the codes (named by their stages), a bar per
 * coroutines value, whichever key was varied first; the hybrid scatter has error bars with repeats; the 64-bar
 * breakdown marks the winner or the ties. Read back from the saved SVGs.
 */
class SweepAsReviewerReadsTest {
    @TempDir Path dir;

    private static final int[] CODES = {28, 20, 24, 30, 12, 0, 6};

    /** sweep.csv of hybrid x coroutines, the keys in the order given; with repeats: _ci95 columns. */
    static String sweep(boolean hybridFirst, boolean repeats) {
        StringBuilder sb = new StringBuilder("point," + (hybridFirst ? "hybrid,coroutines" : "coroutines,hybrid") + ",protocol,runs,throughput_tps"
                + (repeats ? ",throughput_tps_ci95" : "") + ",latency_mean_us" + (repeats ? ",latency_mean_us_ci95" : "")
                + ",READ_mean_us,READ_us_per_txn\n");
        for (int code : CODES) {
            for (int co : new int[] {1, 8}) {
                String h = Integer.toString(code), c = Integer.toString(co);
                sb.append("hybrid=").append(h).append("_coroutines=").append(c).append(',')
                  .append(hybridFirst ? h + "," + c : c + "," + h).append(",sundial,").append(repeats ? 3 : 1).append(',')
                  .append(1000 * co + code).append(repeats ? ",50" : "").append(',').append(10 + code / 10.0).append(repeats ? ",0.5" : "")
                  .append(",1.0,2.0\n");
            }
        }
        return sb.toString();
    }

    private SvgFigure saved(List<Figures.Figure> figs, String base, String sub) throws Exception {
        for (Plots.Saved s : Figures.save(figs, dir.resolve(sub))) if (s.svg().getFileName().toString().equals(base + ".svg")) return SvgFigure.read(s.svg());
        throw new AssertionError("no " + base);
    }

    @Test
    void codesTimesCoroutinesAreGroupedBarsOfNamedCodesWhicheverOrder() throws Exception {
        for (boolean hybridFirst : new boolean[] {true, false}) {
            List<Figures.Figure> figs = Figures.sweepTable(CsvTable.parse(sweep(hybridFirst, true), "sweep.csv"), "sundial-sweep", "");
            SvgFigure f = saved(figs, Figures.SWEEP_THROUGHPUT, hybridFirst ? "a" : "b");
            assertEquals(1, f.panels().size(), "one chart, not a panel per code: " + f.title());
            SvgFigure.Panel p = f.panels().get(0);
            assertEquals("hybrid code (one-sided stages)", p.xAxis());
            assertEquals(List.of("coroutines=1", "coroutines=8"), List.copyOf(p.series().keySet()), "a bar per coroutines value");
            assertEquals(List.of("28 (LOG+RELEASE+COMMIT)", "20 (LOG+COMMIT)", "24 (RELEASE+COMMIT)", "30 (READ+LOG+RELEASE+COMMIT)",
                    "12 (LOG+RELEASE)", "0 (all-rpc)", "6 (READ+LOG)"), p.categories());
            assertTrue(f.title().contains("[bars: hybrid code on the axis, a bar per coroutines value]"), "the choice is stated: " + f.title());
            assertEquals(8.006, p.series().get("coroutines=8").get(6).y(), 1e-9, "code 6 at 8 coroutines: 8,006 txn/s in K");
            assertEquals(0.05, p.series().get("coroutines=8").get(6).err(), 1e-9, "its 95% CI");
            assertTrue(f.legend().containsAll(List.of("coroutines=1", "coroutines=8")), f.legend().toString());
        }
    }

    /** hybrid.csv of 64 codes; with repeats: _ci95 columns, codes 35 and 40 within noise of each other at the top. */
    private static String enumeration(boolean repeats, boolean tie) {
        StringBuilder sb = new StringBuilder("code,onesided,protocol,workload,runs,throughput_tps" + (repeats ? ",throughput_tps_ci95" : "")
                + ",latency_mean_us" + (repeats ? ",latency_mean_us_ci95" : "") + ",LOCK_mean_us,READ_mean_us,LOG_mean_us,RELEASE_mean_us,"
                + "COMMIT_mean_us,VALIDATE_mean_us,LOCK_us_per_txn,READ_us_per_txn\n");
        for (int c = 0; c < 64; c++) {
            double tps = c == 35 ? 300_000 : c == 40 ? (tie ? 299_000 : 250_000) : 100_000 + 1_000 * c;
            sb.append(c).append(",x,occ,smallbank,").append(repeats ? 3 : 1).append(',').append(tps).append(repeats ? ",2000" : "")
              .append(',').append(String.format(Locale.ROOT, "%.2f", 20 - c / 10.0)).append(repeats ? ",0.3" : "")
              .append(",1,1,1,1,1,1,2.0,3.0\n");
        }
        return sb.toString();
    }

    @Test
    void scatterHasErrorBarsWithRepeatsAndTheBreakdownMarksWinnerOrTies() throws Exception {
        SvgFigure one = saved(Figures.hybridTable(CsvTable.parse(enumeration(false, false), "hybrid.csv"), ""), Figures.SCATTER, "one");
        assertTrue(!one.legend().contains(HybridScatter.CI), "one seed: no error bars: " + one.legend());
        SvgFigure bdOne = saved(Figures.hybridTable(CsvTable.parse(enumeration(false, false), "hybrid.csv"), ""), Figures.BREAKDOWN, "one");
        assertTrue(allCategories(bdOne).contains("35" + HybridFigures.Leaders.TOP), allCategories(bdOne).toString());
        assertTrue(bdOne.title().contains("[top, 1 seed: may tie with the next]"), bdOne.title());

        SvgFigure sc = saved(Figures.hybridTable(CsvTable.parse(enumeration(true, false), "hybrid.csv"), ""), Figures.SCATTER, "win");
        assertTrue(sc.legend().contains(HybridScatter.CI), sc.legend().toString());
        List<SvgFigure.Point> bar = sc.panels().get(0).series().get(HybridScatter.CI);
        assertEquals(2, bar.size());
        assertEquals(4.0, Double.parseDouble(bar.get(1).x()) - Double.parseDouble(bar.get(0).x()), 1e-6,
                "code 0's throughput CI: +-2,000 txn/s = 4 K wide");
        SvgFigure win = saved(Figures.hybridTable(CsvTable.parse(enumeration(true, false), "hybrid.csv"), ""), Figures.BREAKDOWN, "win");
        List<String> cats = allCategories(win);
        assertTrue(cats.contains("35" + HybridFigures.Leaders.WINNER), cats.toString());
        assertEquals(1, cats.stream().filter(c -> c.contains("[")).count(), cats.toString());
        assertEquals(2, win.panels().size(), "64 codes: two panels");

        SvgFigure tie = saved(Figures.hybridTable(CsvTable.parse(enumeration(true, true), "hybrid.csv"), ""), Figures.BREAKDOWN, "tie");
        List<String> tc = allCategories(tie);
        assertTrue(tc.contains("35" + HybridFigures.Leaders.TIED) && tc.contains("40" + HybridFigures.Leaders.TIED), tc.toString());
        assertTrue(tie.title().contains("[tied: 2 codes' 95% CIs reach the top's]"), tie.title());
    }

    private static List<String> allCategories(SvgFigure f) {
        List<String> out = new ArrayList<>();
        for (SvgFigure.Panel p : f.panels()) out.addAll(p.categories());
        return out;
    }
}
