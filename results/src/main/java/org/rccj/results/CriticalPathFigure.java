package org.rccj.results;

import com.fasterxml.jackson.databind.JsonNode;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.rccj.primitives.CriticalPath;
import org.rccj.results.Figures.Figure;

/**
 * {@code rcc plot RUN...}'s critical-path figure (sim runs only): one stacked bar per stage of each run, one segment per
 * {@link CriticalPath} term, us per call (a coroutine's wait for its ops, summary.json's {@code critical_path}); each
 * bar's height is the stage's mean wait. Null when no run has the block.
 */
final class CriticalPathFigure {
    static final String NAME = "critical-path";

    /**
     * One colour per term, in {@link CriticalPath#TERMS} order, so that neighbours in a stacked bar differ most: Kelly's
     * 22 colours of maximum contrast, with white and the near-duplicates (greenish yellow, olive green, violet,
     * yellowish brown and pink) swapped for colours far from the rest; 2 greys, none within 45 (RGB distance) of another
     * (issue 42: the former scheme, a hue per kind of term, had 5 near-identical greys).
     */
    static final int[] PALETTE = {0x222222, 0xF3C300, 0x875692, 0xF38400, 0xA1CAF1, 0xBE0032, 0xC2B280, 0x848482, 0x008856, 0xE68FAC,
            0x0067A5, 0xFFB6B0, 0x2B2BCB, 0x00CED1, 0xB3446C, 0x1E90FF, 0x882D17, 0x8DB600, 0x9E6B00, 0xE25822, 0x98DF8A, 0x44AA99};

    static final Map<String, Color> COLOURS = colours();

    private static Map<String, Color> colours() {
        Map<String, Color> out = new java.util.LinkedHashMap<>();
        for (int i = 0; i < CriticalPath.TERMS.size(); i++) {
            out.put(label(CriticalPath.TERMS.get(i).key()), new Color(PALETTE[i % PALETTE.length]));
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    private CriticalPathFigure() {}

    /** A term's legend name: its key with underscores as spaces. */
    static String label(String key) { return key.replace('_', ' '); }

    static Figure of(List<RunMetrics> runs, List<String> runLabels, String prefix) throws IOException {
        List<String> bars = new ArrayList<>(), panelOf = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        List<String> terms = new ArrayList<>();
        for (CriticalPath.Term t : CriticalPath.TERMS) terms.add(label(t.key()));
        for (int i = 0; i < runs.size(); i++) {
            Path f = runs.get(i).dir().resolve(SummaryJson.FILE_NAME);
            if (!Files.isRegularFile(f)) continue;
            JsonNode cp = SummaryJson.read(f).get("critical_path");
            if (cp == null) continue;
            for (Iterator<Map.Entry<String, JsonNode>> it = cp.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                bars.add(runs.size() == 1 ? e.getKey() : runLabels.get(i) + ": " + e.getKey());
                panelOf.add(runLabels.get(i));
                double[] v = new double[terms.size()];
                for (int t = 0; t < v.length; t++) v[t] = e.getValue().path("terms_ns").path(CriticalPath.TERMS.get(t).key()).asDouble(0) / 1e3;
                values.add(v);
            }
        }
        if (bars.isEmpty()) return null;
        String title = "Critical path per call (sim)"
                + (runs.size() == 1 ? " - " + runLabels.get(0) : "");
        return Panels.stageFigure(prefix + NAME, title, "stage", "us per call (post until the coroutine runs again)", bars, panelOf, terms,
                values.toArray(double[][]::new), true, false);
    }
}
