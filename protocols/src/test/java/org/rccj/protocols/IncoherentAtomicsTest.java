package org.rccj.protocols;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.Registry;

/**
 * faults.incoherent_atomics on sim (a NIC atomic reads, waits, then writes, so it is not atomic with CPU
 * atomics): with the profile's loopback (cx4-edr: NIC atomics incoherent, so CPU atomics go through the local
 * NIC) every code of every registered protocol stays serializable; with the test-only CPU atomics instead, the
 * checker catches the lost updates.
 */
class IncoherentAtomicsTest {
    /**
     * The protocol_options under which a protocol's stages post different atomics (each as key, value pairs; the
     * first is the defaults): NOWAIT's and WAITDIE's read_locks (shared read locks are released by FAA);
     * SUNDIAL's renew (artifact and batched post their CAS differently), so every code also verifies with both.
     */
    static List<Object[]> optionVariants(String protocol) {
        return switch (protocol) {
            case "nowait", "waitdie" -> List.of(new Object[0], new Object[] {"protocol_options.read_locks", "shared"});
            case "sundial" -> List.of(new Object[0], new Object[] {"protocol_options.renew", "batched"});
            default -> List.<Object[]>of(new Object[0]);
        };
    }

    static Stream<Arguments> everyCodeOfEveryProtocol() {
        return Registry.protocols().stream()
                .filter(pf -> !pf.name().contains("-"))      // test-only broken variants (occ-novalidate, ...)
                .flatMap(pf -> optionVariants(pf.name()).stream().flatMap(o -> HybridCode.all(pf.stages()).stream()
                        .flatMap(h -> Stream.of("cpu", "network").map(la -> Arguments.of(pf.name(), h.code(), la, o)))));
    }

    /**
     * With {@code local_access: cpu} a node's own coordinators also take CPU atomics (the local shortcut), so every
     * code that needs loopback takes it; with {@code network} only RPC handlers do (own-node CAS/FAA are NIC atomics).
     * A code whose one-sided stages post no NIC atomic with the run's protocol_options is charged none.
     */
    @ParameterizedTest(name = "{0} code {1}, local_access {2}, options {3}")
    @MethodSource("everyCodeOfEveryProtocol")
    void verifiesUnderTheFault(String protocol, int code, String localAccess, Object[] options) {
        // location_cache.preload: its default (auto) with local_access cpu, false with network, so every code of
        // every protocol also verifies with both (the preload changes which one-sided READs are posted)
        Object[] kv = java.util.Arrays.copyOf(new Object[] {"faults.incoherent_atomics", true, "local_access", localAccess,
                "location_cache.preload", localAccess.equals("cpu") ? "auto" : "false"}, 6 + options.length);
        System.arraycopy(options, 0, kv, 6, options.length);
        String what = protocol + " code " + code + ", local_access " + localAccess + " " + java.util.Arrays.toString(options);
        RunResult r = HybridCodes.sim(protocol, code, kv);
        HybridCodes.assertVerified(r, what);
        ProtocolFactory pf = Registry.protocols().stream().filter(f -> f.name().equals(protocol)).findFirst().orElseThrow();
        Map<String, Object> po = new java.util.HashMap<>();
        for (int i = 0; i < options.length; i += 2) po.put(((String) options[i]).substring("protocol_options.".length()), options[i + 1]);
        boolean needs = ProtocolFactory.needsLoopback(pf, code, po);
        if (needs && localAccess.equals("cpu")) {
            assertTrue(r.extra.getOrDefault("loopback_atomics", 0.0) > 0, "no CPU atomic took the loopback: " + what + " " + r.extra);
        } else if (!needs) {
            // the declaration (ProtocolFactory.nicAtomicStages with the run's options) is what spares this code the
            // loopback: no stage bound one-sided in it may post a NIC atomic
            assertEquals(0, r.network.cas + r.network.faa, what + " posted NIC atomics but is declared not to need loopback");
        }
        if (r.network.cas + r.network.faa == 0) {
            assertEquals(0.0, r.extra.getOrDefault("loopback_atomics", 0.0), "loopback charged where no NIC atomic is posted: " + what);
        }
        assertEquals(0.0, r.extra.get("atomic_races"), "a CPU atomic landed inside a NIC atomic despite the loopback");
    }

    @Test
    void cpuAtomicsRacingNicAtomicsAreCaught() {
        // OCC all-one-sided: remote coordinators lock by NIC CAS, a node's own coordinators by CPU CAS (local
        // shortcut) on the same lock words. Hot accounts make the two meet inside a NIC CAS's read-write gap.
        RunResult r = Runs.run(Runs.smallBank("protocol", "occ", "hybrid", "all-onesided", "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 10.0,
                "faults.incoherent_atomics", true, "faults.cpu_local_atomics", true, "local_access", "cpu"));
        assertTrue(r.extra.get("atomic_races") > 0, r.extra.toString());
        assertFalse(r.verification.passed(), "CPU CAS racing incoherent NIC CAS went unnoticed: " + r.verification);
    }

    @Test
    void sameRunWithLoopbackIsSerializable() {
        RunResult r = Runs.run(Runs.smallBank("protocol", "occ", "hybrid", "all-onesided", "coroutines", 8,
                "workload.accounts_per_thread", 20, "workload.hot_probability", 0.9, "duration_ms", 10.0,
                "faults.incoherent_atomics", true, "local_access", "cpu"));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("loopback_atomics") > 0);
    }

}
