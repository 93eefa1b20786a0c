package org.rccj.fabrics.ucx;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;
import org.rccj.ucx.UcxException;

/**
 * Registers {@code ucx}: the nodes talk through UCX ({@link UcxFabric}): one-sided verbs as UCX RMA and atomics,
 * RPCs as active messages. Which transports UCX uses is UCX's choice, narrowed by {@code ucx.tls} (UCX_TLS).
 */
public final class UcxFabricFactory implements FabricFactory {
    static final String PROFILE = "profile", TLS = "ucx.tls";
    static final List<Param> PARAMS = List.of(
            Param.ofChoice(PROFILE, CostProfile.DEFAULT, CostProfile.known(), "cost profile handed to the workers (ucx charges no simulated time)"),
            new Param(TLS, Param.Type.STRING, "", 0, 0, List.of(), "UCX transports (UCX_TLS), e.g. posix,self (shared memory) or tcp or rc,self; empty: UCX's own choice (or the UCX_TLS environment variable)"));

    @Override public String name() { return "ucx"; }

    @Override
    public String description() {
        return "the nodes talk through UCX (RDMA verbs, shared memory or TCP; one-sided verbs as UCX RMA/atomics, RPC as active messages); wall-clock time";
    }

    @Override public List<Param> parameters() { return PARAMS; }
    @Override public boolean virtualTime() { return false; }

    @Override
    public Fabric create(FabricSetup s) {
        String tls = s.s(TLS);
        try {
            return new UcxFabric(s.nodes(), s.threads(), CostProfile.load(s.s(PROFILE)), tls.isEmpty() ? Map.of() : Map.of("TLS", tls));
        } catch (UcxException e) {
            throw new ConfigException("fabric: ucx: " + e.getMessage());
        }
    }

    /**
     * Per transport, how many peers of node 0 UCX reaches with it ({@code ucx.peers.tl.posix}), and how many peers'
     * one-sided ops run in hardware, by shared memory or emulated ({@code ucx.peers.onesided.emulated}).
     */
    @Override
    public Map<String, Double> metrics(Fabric fabric, FabricSetup setup) {
        Map<String, Double> m = new LinkedHashMap<>();
        if (!(fabric instanceof UcxFabric f)) return m;
        for (String mode : List.of(Lanes.HARDWARE, Lanes.SHARED_MEMORY, Lanes.EMULATED)) m.put("ucx.peers.onesided." + mode, 0.0);
        for (String info : f.lanes().values()) {
            Lanes l = Lanes.parse(info);
            m.merge("ucx.peers.onesided." + l.oneSided(), 1.0, Double::sum);
            for (String tl : l.transports()) m.merge("ucx.peers.tl." + tl, 1.0, Double::sum);
        }
        return m;
    }
}
