package org.rccj.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.CategoryChart;

/** Issue 42 item 7: one stage order in compare's rows, the tables' columns and the stage-breakdown figure. */
class StageOrderTest {
    @TempDir Path dir;

    static final List<String> OCC = List.of("READ", "LOCK", "VALIDATE", "LOG", "COMMIT", "RELEASE", "EXECUTE");
    static final List<String> SUNDIAL = List.of("READ", "LOCK", "RENEW", "LOG", "COMMIT", "RELEASE", "EXECUTE");
    static final List<String> CALVIN = List.of("DISPATCH", "FORWARD", "EPOCH_SYNC", "EXECUTE");

    @Test
    void aStageOnlyLaterRunsHaveGoesAfterItsPredecessorAndExecuteLast() {
        assertEquals(List.of("READ", "LOCK", "VALIDATE", "RENEW", "LOG", "COMMIT", "RELEASE", "EXECUTE"),
                StageOrder.stages(List.of(OCC, SUNDIAL)));
        assertEquals(List.of("READ", "LOCK", "RENEW", "VALIDATE", "LOG", "COMMIT", "RELEASE", "EXECUTE"),
                StageOrder.stages(List.of(SUNDIAL, OCC)), "the first run's order is kept as declared");
        assertEquals(OCC, StageOrder.stages(List.of(OCC, OCC)), "one protocol: its declared order");
        assertEquals(List.of("READ", "LOCK", "VALIDATE", "LOG", "COMMIT", "RELEASE", "DISPATCH", "FORWARD", "EPOCH_SYNC", "EXECUTE"),
                StageOrder.stages(List.of(OCC, CALVIN)));
    }

    private RunMetrics run(String protocol, List<String> stages) {
        Map<String, RunMetrics.StageFigures> f = new LinkedHashMap<>();
        for (int i = 0; i < stages.size(); i++) f.put(stages.get(i), new RunMetrics.StageFigures(100, 1 + i, 2 + i));
        return RunMetrics.builder().dir(dir.resolve(protocol)).name(protocol).protocol(protocol).workload("smallbank")
                .fabric("sim").config(new ObjectMapper().createObjectNode()).commits(100).throughputTps(1e6)
                .latencyMeanUs(40).latencyP50Us(30).latencyP90Us(50).latencyP99Us(60).stages(f).build();
    }

    private static List<String> stagesOf(List<String> names, String suffix) {
        List<String> out = new ArrayList<>();
        for (String n : names) if (n.endsWith(suffix) && !n.startsWith("latency_")) out.add(n.substring(0, n.length() - suffix.length()));
        return out;
    }

    @Test
    void compareRowsAndTheStageBreakdownLegendAgree() throws Exception {
        RunMetrics occ = run("occ", OCC), sundial = run("sundial", SUNDIAL);
        List<String> expected = List.of("READ", "LOCK", "VALIDATE", "RENEW", "LOG", "COMMIT", "RELEASE", "EXECUTE");

        // rcc compare A B: each input's table, the rows merged
        List<Comparison.Input> inputs = new ArrayList<>();
        for (RunMetrics m : List.of(occ, sundial)) {
            String csv = ResultTable.csv(List.of(), List.of(new ResultTable.Row(List.of(), List.of(m), null)));
            inputs.add(new Comparison.Input(m.name(), m.name(), CsvTable.parse(csv, m.name())));
        }
        List<String> compareRows = stagesOf(Comparison.metrics(inputs), "_mean_us");
        assertEquals(expected, compareRows, "compare's stage rows");

        // one table of both runs (sweep.csv, hybrid.csv)
        List<ResultTable.Row> rows = List.of(new ResultTable.Row(List.of(), List.of(occ), null), new ResultTable.Row(List.of(), List.of(sundial), null));
        assertEquals(expected, stagesOf(ResultTable.metricColumns(rows), "_mean_us"), "the table's stage columns");

        // rcc plot of the two run directories: the stage-breakdown's segments and legend, bottom up
        CategoryChart bd = (CategoryChart) Figures.runs(List.of(occ, sundial), "").get(0).chart();
        List<String> legend = new ArrayList<>(bd.getSeriesMap().keySet());
        legend.retainAll(expected);
        assertEquals(compareRows.stream().filter(legend::contains).toList(), legend, "the plot's stages in compare's order");
        assertEquals(List.of("READ", "LOCK", "VALIDATE", "RENEW"), legend.subList(0, 4), "RENEW before LOG, not after RELEASE");
    }
}
