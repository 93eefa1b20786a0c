package org.rccj.fabrics.sim;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.fabrics.Profiles;
import org.rccj.framework.config.Param;
import org.rccj.fabrics.NamedFabric;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;

/** Registers {@code sim}: the deterministic simulated cluster, its cost profile and the faults it can inject. */
public final class SimFabricFactory extends NamedFabric {
    static final String PROFILE = Profiles.KEY, TORN_READS = "faults.torn_reads", INCOHERENT_ATOMICS = "faults.incoherent_atomics",
            CPU_LOCAL_ATOMICS = "faults.cpu_local_atomics", THREADS = "sim.threads";
    /** Clusters from this size up are simulated on every core unless sim.threads says otherwise. */
    static final int PARALLEL_FROM_NODES = 16;
    static final List<Param> PARAMS = List.of(
            Profiles.param("cost profile of the simulated machine"),
            Param.ofBoolean(TORN_READS, false, "multi-line one-sided READs reach memory line by line, so concurrent writes can tear them"),
            Param.ofBoolean(INCOHERENT_ATOMICS, false, "a NIC atomic reads, waits, then writes, so a CPU atomic on the same word can be lost"),
            Param.ofBoolean(CPU_LOCAL_ATOMICS, false, "test-only: CPU atomics skip the loopback incoherent NIC atomics need (the checker must catch it)"),
            Param.ofOptionalInt(THREADS, 1, 4096, "threads that simulate the cluster in parallel (one node per thread at most; the result is the same "
                    + "on any number); null: every core for clusters of " + PARALLEL_FROM_NODES + " nodes or more, 1 below"));

    public SimFabricFactory() {
        super("sim", "deterministic discrete-event simulation of the whole cluster (sim.threads: in parallel, the same result); virtual time; cost model from a profile (default)",
                PARAMS, true);
    }

    @Override
    public Fabric create(FabricSetup s) {
        Object threads = s.value(THREADS);
        int simThreads = threads instanceof Number n ? n.intValue()
                : s.nodes() >= PARALLEL_FROM_NODES ? Runtime.getRuntime().availableProcessors() : 1;
        return new SimFabric(s.nodes(), s.threads(), CostProfile.load(s.s(PROFILE)),
                new FaultSettings(s.b(TORN_READS), s.b(INCOHERENT_ATOMICS), s.b(CPU_LOCAL_ATOMICS)), simThreads);
    }

    /**
     * A profile that does not load (unknown name, unreadable file, unknown or out-of-range parameter) is bad input, and
     * so is a fault the profile contradicts: {@code faults.incoherent_atomics} on a profile that declares its NIC
     * atomics coherent with CPU atomics ({@code nic.atomics_coherent=1}), where no CPU atomic takes the loopback the
     * fault needs, so updates are lost and the protocol only looks broken (issue 38).
     */
    @Override
    public void check(Map<String, Object> settings) {
        Profiles.check(settings);
        String profile = String.valueOf(settings.get(PROFILE));
        if (Boolean.TRUE.equals(settings.get(INCOHERENT_ATOMICS)) && CostProfile.load(profile).nicAtomicsCoherent) {
            throw new org.rccj.framework.config.ConfigException(INCOHERENT_ATOMICS + ": true contradicts profile " + profile
                    + ", which declares nic.atomics_coherent=1 (NIC atomics atomic with CPU atomics, so no CPU atomic takes the"
                    + " loopback and the fault would lose updates): drop the fault or use a profile with nic.atomics_coherent=0");
        }
    }

    /** With torn reads on: how many READs were torn, and how many of them saw memory change while in flight. */
    @Override
    public Map<String, Double> metrics(Fabric fabric, FabricSetup s) {
        Map<String, Double> m = new LinkedHashMap<>();
        SimFabric sim = (SimFabric) fabric;
        if (sim.loopbackAtomics()) m.put("loopback_atomics", (double) sim.loopbackAtomicCount());
        if (s.b(INCOHERENT_ATOMICS)) m.put("atomic_races", (double) sim.atomicRaces());
        if (s.b(TORN_READS)) {
            m.put("torn_reads", (double) sim.tornReads());
            m.put("torn_reads_observed", (double) sim.tornReadsObserved());
        }
        return m;
    }
}
