package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;

/** Small YCSB and TATP configurations and the checks every verified run of them must pass. */
final class YcsbTatpRuns {
    static final List<String> YCSB_INVARIANTS = List.of("write_count", "record_consistent");
    static final List<String> TATP_INVARIANTS = List.of("call_forwarding_needs_special_facility", "call_forwarding_count",
            "static_rows_as_loaded", "sub_nbr_matches_s_id");

    private YcsbTatpRuns() {}

    /** YCSB over 600 keys (3 nodes x 2 threads x 100): the default hot area is one key, so there is contention. */
    static Map<String, Object> ycsb(String protocol, Object... kv) {
        Map<String, Object> m = ItRuns.config(protocol, "ycsb", "workload.keys_per_thread", 100);
        for (int i = 0; i < kv.length; i += 2) ItRuns.put(m, (String) kv[i], kv[i + 1]);
        return m;
    }

    /** TATP with 100 subscribers per node (300 in all, NURand ids). */
    static Map<String, Object> tatp(String protocol, Object... kv) {
        Map<String, Object> m = ItRuns.config(protocol, "tatp", "workload.subscribers_per_node", 100);
        for (int i = 0; i < kv.length; i += 2) ItRuns.put(m, (String) kv[i], kv[i + 1]);
        return m;
    }

    static Map<String, Object> config(String workload, String protocol, Object... kv) {
        return switch (workload) {
            case "ycsb" -> ycsb(protocol, kv);
            case "tatp" -> tatp(protocol, kv);
            default -> throw new IllegalArgumentException(workload);
        };
    }

    static List<String> invariants(String workload) { return workload.equals("ycsb") ? YCSB_INVARIANTS : TATP_INVARIANTS; }

    /** Every registered protocol but test doubles (names containing "novalidate" or starting with "test"). */
    static List<ProtocolFactory> protocols() {
        List<ProtocolFactory> out = new ArrayList<>();
        for (ProtocolFactory f : Registry.protocols()) {
            if (f.name().contains("novalidate") || f.name().startsWith("test")) continue;
            out.add(f);
        }
        assertFalse(out.isEmpty(), "no protocol registered");
        return out;
    }

    /** A hybrid code with every other stage one-sided (first, third, ...), e.g. OCC: READ+VALIDATE+COMMIT. */
    static String mixedCode(ProtocolFactory f) {
        List<Stage> stages = f.stages();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < stages.size(); i += 2) names.add(stages.get(i).name());
        return String.join("+", names);
    }

    /** Committed enough, serializable, and every invariant of the workload checked and true. */
    static void assertVerified(RunResult r, String workload, String what) {
        assertTrue(r.commits() > 20, what + ": too few commits " + r.commits());
        assertTrue(r.verification.checked(), what + ": not verified");
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertTrue(r.verification.txnsChecked() >= r.commits(), what + ": checked " + r.verification.txnsChecked());
        assertEquals(invariants(workload), List.copyOf(r.verification.invariants().keySet()), what);
        for (String inv : invariants(workload)) assertEquals(Boolean.TRUE, r.verification.invariants().get(inv), what + ": " + inv);
        assertTrue(r.verification.passed(), what);
    }
}
