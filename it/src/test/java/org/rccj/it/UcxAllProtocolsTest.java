package org.rccj.it;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.ProtocolFactory;

/**
 * TPC-C and TATP for OCC and NOWAIT in three codes on the {@code ucx} fabric with every node in this process (each
 * with its own UCP context, so every remote op and RPC goes through UCX's transports), verified, over shared memory
 * (UCX_TLS=posix,self) and over TCP. The protocol matrix on SmallBank and YCSB runs across three processes
 * (cli's UcxClusterTest).
 */
class UcxAllProtocolsTest {
    static final List<String> TLS = List.of("posix,self", "tcp");

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (String tls : TLS) {
            for (ProtocolFactory f : YcsbTatpRuns.protocols()) {
                if (!List.of("occ", "nowait").contains(f.name())) continue;
                for (String wl : List.of("tpcc", "tatp")) {
                    for (String code : List.of("all-rpc", "all-onesided", YcsbTatpRuns.mixedCode(f))) out.add(Arguments.of(tls, wl, f.name(), code));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "ucx {0} {1} {2} {3}")
    @MethodSource("cases")
    void verified(String tls, String workload, String protocol, String code) {
        Map<String, Object> m = ItRuns.config(protocol, workload, "hybrid", code, "fabric", "ucx", "ucx.tls", tls,
                "nodes", 3, "threads", 2, "coroutines", 3, "warmup_ms", 30, "duration_ms", 300,
                // both values of local_access: the default (network) but for the mixed code; all-rpc with passive_ack
                // (its COMMIT as passive RPCs)
                "local_access", code.startsWith("all-") ? "network" : "cpu", "passive_ack", code.equals("all-rpc"));
        switch (workload) {
            case "ycsb" -> ItRuns.put(m, "workload.keys_per_thread", 100);
            case "tatp" -> ItRuns.put(m, "workload.subscribers_per_node", 100);
            // a tenth of TPC-C's per-warehouse rows: 21 MiB of registered memory per node instead of 209 (issue 33)
            default -> ItRuns.put(m, "workload.scale_down", 10);
        }
        RunResult r = ItRuns.runUntilChecked(m);
        String what = "ucx " + tls + " " + workload + " " + protocol + " " + code;
        ItRuns.assertChecked(r, what);
        assertTrue(r.verification.checked(), what + ": not verified");
        assertTrue(r.verification.serializable(), what + ": " + r.verification.anomalies());
        assertTrue(r.verification.passed(), what + ": " + r.verification.invariants());
        long oneSided = r.network.read + r.network.write + r.network.cas + r.network.faa;
        if (code.equals("all-rpc")) assertEquals(0, oneSided, what + ": all-rpc used one-sided verbs");
        else assertTrue(oneSided > 0, what + ": no one-sided verbs");
        String mode = tls.equals("tcp") ? "emulated" : "shared_memory";
        assertEquals(2.0, r.extra.get("ucx.peers.onesided." + mode), what + ": " + r.extra);
    }
}
