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

    /** One colour per term, by kind: core work blue, link and wire grey, NIC waits orange, RPC responder green, core waits purple. */
    static final Map<String, Color> COLOURS = Map.ofEntries(
            Map.entry(label("requester_cpu"), new Color(0x1F4E99)), Map.entry(label("local_cpu"), new Color(0x6FA8DC)),
            Map.entry(label("egress"), new Color(0xF6B26B)), Map.entry(label("wire_out"), new Color(0x999999)),
            Map.entry(label("loopback_out"), new Color(0xCCCCCC)), Map.entry(label("qp_miss"), new Color(0xB45F06)),
            Map.entry(label("responder_nic_wait"), new Color(0xE69138)), Map.entry(label("responder_nic"), new Color(0x783F04)),
            Map.entry(label("responder_poll_wait"), new Color(0xB6D7A8)), Map.entry(label("rpc_dispatch"), new Color(0x38761D)),
            Map.entry(label("handler"), new Color(0x6AA84F)), Map.entry(label("reply_cpu"), new Color(0x274E13)),
            Map.entry(label("egress_back"), new Color(0xFCE5CD)), Map.entry(label("wire_back"), new Color(0x666666)),
            Map.entry(label("payload_back"), new Color(0x444444)), Map.entry(label("loopback_back"), new Color(0xB7B7B7)),
            Map.entry(label("local_atomic_loopback"), new Color(0x9FC5E8)), Map.entry(label("rpc_receive"), new Color(0x93C47D)),
            Map.entry(label("requester_nic_wait"), new Color(0xF9CB9C)), Map.entry(label("inbox_wait"), new Color(0x8E7CC3)),
            Map.entry(label("poll_cpu"), new Color(0x0B5394)), Map.entry(label("resume_wait"), new Color(0xC27BA0)));

    private CriticalPathFigure() {}

    /** A term's legend name: its key with underscores as spaces. */
    static String label(String key) { return key.replace('_', ' '); }

    static Figure of(List<RunMetrics> runs, List<String> runLabels, String prefix) throws IOException {
        List<String> bars = new ArrayList<>(), panelOf = new ArrayList<>();
        List<double[]> values = new ArrayList<>();
        List<String> terms = new ArrayList<>();
        for (CriticalPath t : CriticalPath.TERMS) terms.add(label(t.key()));
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
