package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertTrue;

import de.erichseifert.vectorgraphics2d.VectorGraphics2D;
import java.awt.Shape;
import java.awt.geom.Area;
import java.awt.geom.Rectangle2D;
import java.awt.geom.RectangularShape;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rccj.framework.run.RunResult;

/**
 * Every figure kind, drawn as it is saved, with its text recorded: no label, tick, title or legend text overlaps
 * another, and every one stays inside the canvas and inside the panel it belongs to.
 */
class FigureTextTest {
    @TempDir Path dir;

    /** A Graphics2D that records where text is drawn (XChart fills text outlines; grids draw strings). */
    static final class TextRecorder extends VectorGraphics2D {
        record Text(String by, Area area, Rectangle2D clip) {}

        private static final List<String> TEXT_PARTS = List.of("AxisTickLabels", "AxisTitle", "ChartTitle", "Legend_", "AnnotationText");
        final List<Text> texts = new ArrayList<>();

        @Override
        public void fill(Shape s) {
            String caller = StackWalker.getInstance().walk(f -> f.skip(1).findFirst().map(StackWalker.StackFrame::getClassName).orElse(""));
            if (!(s instanceof RectangularShape) && TEXT_PARTS.stream().anyMatch(caller::contains)) {
                record(caller.substring(caller.lastIndexOf('.') + 1), hull(s));
            }
            super.fill(s);
        }

        @Override
        public void drawString(String str, float x, float y) {
            java.awt.FontMetrics fm = getFontMetrics();
            record("Grid.paint '" + str + "'", new Rectangle2D.Double(x, y - fm.getAscent(), fm.stringWidth(str), fm.getAscent() + fm.getDescent()));
            super.drawString(str, x, y);
        }

        @Override
        public void drawString(String str, int x, int y) { drawString(str, (float) x, (float) y); }

        /** The convex hull of a text outline: its box, turned as the text is (XChart rotates some outlines itself). */
        private static Shape hull(Shape s) {
            List<double[]> pts = new ArrayList<>();
            double[] c = new double[6];
            for (java.awt.geom.PathIterator it = s.getPathIterator(null, 0.5); !it.isDone(); it.next()) {
                if (it.currentSegment(c) != java.awt.geom.PathIterator.SEG_CLOSE) pts.add(new double[] {c[0], c[1]});
            }
            pts.sort((a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
            List<double[]> h = new ArrayList<>();
            for (int pass = 0; pass < 2; pass++) {
                int start = h.size();
                for (double[] p : pass == 0 ? pts : pts.reversed()) {
                    while (h.size() >= start + 2 && cross(h.get(h.size() - 2), h.get(h.size() - 1), p) <= 0) h.remove(h.size() - 1);
                    h.add(p);
                }
                h.remove(h.size() - 1);
            }
            java.awt.geom.Path2D.Double path = new java.awt.geom.Path2D.Double();
            for (int i = 0; i < h.size(); i++) {
                if (i == 0) path.moveTo(h.get(i)[0], h.get(i)[1]);
                else path.lineTo(h.get(i)[0], h.get(i)[1]);
            }
            path.closePath();
            return path;
        }

        private static double cross(double[] o, double[] a, double[] b) {
            return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
        }

        private void record(String by, Shape local) {
            if (local.getBounds2D().isEmpty()) return;
            Area a = new Area(getTransform().createTransformedShape(local));
            Shape clip = getClip();
            texts.add(new Text(by, a, clip == null ? null : getTransform().createTransformedShape(clip).getBounds2D()));
        }
    }

    /** Draws {@code f} and checks its text boxes. */
    static void assertTextFits(Figures.Figure f) {
        TextRecorder g = new TextRecorder();
        java.awt.Dimension size = f.draw(g);
        List<TextRecorder.Text> texts = g.texts;
        assertTrue(texts.size() >= 4, f.base() + ": text was recorded (" + texts.size() + ")");
        Rectangle2D canvas = new Rectangle2D.Double(-1, -1, size.width + 2, size.height + 2);
        for (TextRecorder.Text t : texts) {
            Rectangle2D b = t.area().getBounds2D();
            assertTrue(canvas.contains(b), f.base() + ": " + t.by() + " at " + box(b) + " leaves the " + size.width + "x" + size.height + " canvas");
            if (t.clip() != null) {
                Rectangle2D c = new Rectangle2D.Double(t.clip().getX() - 1, t.clip().getY() - 1, t.clip().getWidth() + 2, t.clip().getHeight() + 2);
                assertTrue(c.contains(b), f.base() + ": " + t.by() + " at " + box(b) + " is clipped by its panel " + box(t.clip()));
            }
        }
        for (int i = 0; i < texts.size(); i++) {
            for (int j = i + 1; j < texts.size(); j++) {
                Area a = new Area(texts.get(i).area());
                a.intersect(texts.get(j).area());
                Rectangle2D b = a.getBounds2D();
                assertTrue(a.isEmpty() || b.getWidth() < 1.5 || b.getHeight() < 1.5, f.base() + ": " + texts.get(i).by() + " at "
                        + box(texts.get(i).area().getBounds2D()) + " overlaps " + texts.get(j).by() + " at " + box(texts.get(j).area().getBounds2D()));
            }
        }
    }

    private static String box(Rectangle2D b) {
        return String.format(Locale.ROOT, "[%.0f,%.0f %.0fx%.0f]", b.getX(), b.getY(), b.getWidth(), b.getHeight());
    }

    /**
     * A hybrid.csv of 64 OCC codes shaped like a real enumeration: codes differing only in RELEASE (8) land on one
     * spot, all-onesided (63) next to the best (55), 39 on 47.
     */
    static CsvTable enumeration() throws Exception {
        StringBuilder sb = new StringBuilder("code,onesided,loopback,verified,protocol,workload,runs,throughput_tps,latency_mean_us,READ_mean_us,"
                + "LOCK_mean_us,VALIDATE_mean_us,LOG_mean_us,COMMIT_mean_us,RELEASE_mean_us,READ_us_per_txn,LOCK_us_per_txn,VALIDATE_us_per_txn,"
                + "LOG_us_per_txn,COMMIT_us_per_txn,RELEASE_us_per_txn,READ_p99_us,LOCK_p99_us\n");
        int[] bits = {2, 1, 32, 4, 16};
        double[] gain = {0.36, 0.2, 0.15, 0.9, 0.26};
        for (int c = 0; c < 64; c++) {
            double tps = 5.62e6, lat = 19.3;
            for (int i = 0; i < bits.length; i++) {
                if ((c & bits[i]) != 0) {
                    tps *= 1 + gain[i] * 0.3;
                    lat -= gain[i] * (i == 4 ? -1 : 2);
                }
            }
            if ((c & 8) != 0) tps *= 0.999;
            boolean commitRpc = (c & 16) == 0;
            sb.append(String.format(Locale.ROOT, "%d,x,no,off,occ,smallbank,1,%.1f,%.3f,1.0,1.0,1.0,1.0,%s,1.0,6.0,4.0,2.0,6.0,%s,0.01,5.0,6.0%n",
                    c, tps, lat, commitRpc ? "0.1" : "3.0", commitRpc ? "0.1" : "3.0"));
        }
        return CsvTable.parse(sb.toString(), "hybrid.csv");
    }

    @Test
    void enumerationFigures() throws Exception {
        List<Figures.Figure> figs = Figures.hybridTable(enumeration(), "");
        assertTrue(figs.size() >= 3, figs.toString());
        for (Figures.Figure f : figs) assertTextFits(f);
    }

    @Test
    void sweepFigures() throws Exception {
        for (CsvTable t : List.of(FiguresTest.sweep(List.of(), false), FiguresTest.sweep(List.of(1, 4), true), FiguresTest.sweep(List.of(1, 2, 4, 8), false))) {
            for (Figures.Figure f : Figures.sweepTable(t, "coroutines", "")) assertTextFits(f);
        }
        // hybrid codes x coroutines: grouped bars of codes named by their stages
        for (Figures.Figure f : Figures.sweepTable(CsvTable.parse(SweepAsReviewerReadsTest.sweep(true, true), "sweep.csv"), "sundial-sweep", "")) {
            assertTextFits(f);
        }
    }

    @Test
    void runFigures() throws Exception {
        List<RunMetrics> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RunResult r = SampleResults.sample("sim");
            for (int k = 1; k <= 2000; k++) r.total.latency.record(1000L * (k % 200 + 1) * (i + 1));
            runs.add(RunMetrics.read(ResultWriter.write(r, dir.resolve("run" + i))));
        }
        List<Figures.Figure> figs = Figures.runs(runs, "");
        assertTrue(figs.size() == 4, figs.toString());
        for (Figures.Figure f : figs) assertTextFits(f);
    }

    @Test
    void protocolsFigure() throws Exception {
        assertTextFits(Figures.protocols(List.of(FiguresTest.hybrid("occ", "smallbank", 2), FiguresTest.hybrid("nowait", "smallbank", 1),
                FiguresTest.hybrid("sundial", "smallbank", 3), FiguresTest.hybrid("occ", "tpcc", 1)), ""));
    }
}
