package org.rccj.hybrid;

import org.rccj.framework.run.Config;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;
import org.rccj.results.ResultTable;
import org.rccj.results.RunMetrics;

/**
 * {@code hybrid.csv}: one row per hybrid code with a finished result, sorted by code: {@code code},
 * {@code onesided} (one-sided stage names joined by '+', "all-rpc" for code 0), {@code loopback} ("yes" when
 * the code binds one-sided a stage that posts NIC atomics, so that on a profile whose NIC atomics are
 * incoherent with the CPU's every CPU atomic on such words goes through the local NIC; "?" for a protocol not
 * on the class path; {@link ProtocolFactory#needsLoopback}), {@code verified} (serializability and invariants over
 * the seeds: passed, failed, partial when only some runs were checked, off with {@code verify: false}), {@code protocol},
 * {@code workload}, then {@link ResultTable}'s runs and metrics (mean and 95% CI over seeds). Built from
 * summary.json files only, so a merged set of shards gives the same bytes as one full enumeration.
 */
public final class HybridTable {
    public static final String FILE_NAME = "hybrid.csv";
    public static final List<String> KEY_COLUMNS = List.of("code", "onesided", "loopback", "verified", "protocol", "workload");

    private HybridTable() {}

    /** Groups runs by code (ascending), each group by seed (ascending). */
    public static List<CodeResult> byCode(Collection<RunMetrics> runs) {
        Map<Integer, List<RunMetrics>> groups = new TreeMap<>();
        for (RunMetrics m : runs) groups.computeIfAbsent(m.code(), c -> new ArrayList<>()).add(m);
        List<CodeResult> out = new ArrayList<>();
        for (List<RunMetrics> g : groups.values()) {
            g.sort(Comparator.comparingLong(RunMetrics::seed));
            out.add(CodeResult.of(g));
        }
        return out;
    }

    public static String csv(List<CodeResult> codes) {
        List<ResultTable.Row> rows = new ArrayList<>();
        for (CodeResult c : codes) {
            RunMetrics first = c.runs().get(0);
            rows.add(new ResultTable.Row(List.of(Integer.toString(c.code()), c.label(), loopback(first, c.code()), c.verified().spelled(),
                    first.protocol(), first.workload()), c.runs()));
        }
        return ResultTable.csv(KEY_COLUMNS, rows);
    }

    /**
     * "yes"/"no": does {@code code} need loopback atomics on incoherent NICs, with the protocol_options of run
     * {@code m} ("?": unknown protocol).
     */
    public static String loopback(RunMetrics m, int code) {
        ProtocolFactory pf = factory(m.protocol());
        return pf == null ? "?" : pf.needsLoopback(code, protocolOptions(m)) ? "yes" : "no";
    }

    /** The stages of run {@code m}'s protocol that post NIC atomics when bound one-sided, with its protocol_options (empty: unknown protocol). */
    public static List<org.rccj.framework.api.Stage> nicAtomicStages(RunMetrics m) {
        ProtocolFactory pf = factory(m.protocol());
        return pf == null ? List.of() : pf.nicAtomicStages(protocolOptions(m));
    }

    /** Run {@code m}'s protocol_options as recorded in its config (scalars only; a key it lacks takes its default). */
    static Map<String, Object> protocolOptions(RunMetrics m) {
        Map<String, Object> out = new TreeMap<>();
        if (m.config() == null) return out;
        var it = m.config().path(Config.PROTOCOL_OPTIONS).fields();
        while (it.hasNext()) {
            var e = it.next();
            var v = e.getValue();
            if (v.isTextual()) out.put(e.getKey(), v.asText());
            else if (v.isBoolean()) out.put(e.getKey(), v.asBoolean());
            else if (v.isIntegralNumber()) out.put(e.getKey(), v.asLong());
            else if (v.isNumber()) out.put(e.getKey(), v.asDouble());
        }
        return out;
    }

    private static ProtocolFactory factory(String protocol) {
        for (ProtocolFactory pf : Registry.protocols()) if (pf.name().equals(protocol)) return pf;
        return null;
    }
}
