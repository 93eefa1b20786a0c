package org.rccj.fabrics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;
import org.rccj.primitives.FaultSettings;
import org.rccj.primitives.SimFabric;

/** Registers {@code sim}: the deterministic simulated cluster, its cost profile and the faults it can inject. */
public final class SimFabricFactory implements FabricFactory {
    static final String PROFILE = "profile", TORN_READS = "faults.torn_reads";
    static final List<Param> PARAMS = List.of(
            Param.ofChoice(PROFILE, CostProfile.DEFAULT, CostProfile.known(), "cost profile of the simulated machine (calibration.md)"),
            Param.ofBoolean(TORN_READS, false, "multi-line one-sided READs reach memory line by line, so concurrent writes can tear them"));

    @Override public String name() { return "sim"; }

    @Override
    public String description() {
        return "deterministic discrete-event simulation of the whole cluster on one thread; virtual time; cost model from a profile (default)";
    }

    @Override public List<Param> parameters() { return PARAMS; }
    @Override public boolean virtualTime() { return true; }

    @Override
    public Fabric create(FabricSetup s) {
        return new SimFabric(s.nodes(), s.threads(), CostProfile.load(s.s(PROFILE)), new FaultSettings(s.b(TORN_READS)));
    }

    /** With torn reads on: how many READs were torn, and how many of them saw memory change while in flight. */
    @Override
    public Map<String, Double> metrics(Fabric fabric, FabricSetup s) {
        Map<String, Double> m = new LinkedHashMap<>();
        if (s.b(TORN_READS)) {
            SimFabric sim = (SimFabric) fabric;
            m.put("torn_reads", (double) sim.tornReads());
            m.put("torn_reads_observed", (double) sim.tornReadsObserved());
        }
        return m;
    }
}
