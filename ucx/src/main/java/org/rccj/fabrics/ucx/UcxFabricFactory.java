package org.rccj.fabrics.ucx;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.fabrics.Profiles;
import org.rccj.fabrics.cluster.ClusterFabricFactory;
import org.rccj.fabrics.cluster.ClusterFailure;
import org.rccj.fabrics.cluster.ClusterSettings;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.run.Config;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;
import org.rccj.ucx.Ucx;
import org.rccj.ucx.UcxException;

/**
 * Registers {@code ucx}: the nodes talk through UCX ({@link UcxFabric}): one-sided verbs as UCX RMA and atomics,
 * RPCs as active messages. Which transports UCX uses is UCX's choice, narrowed by {@code ucx.tls} (UCX_TLS). One
 * process per node on the cluster control plane ({@code rcc run} spawns them on this host, {@code rcc node} by hand
 * or under srun); {@link #create} builds every node in the calling process instead (tests, single-host runs).
 */
public final class UcxFabricFactory implements ClusterFabricFactory {
    static final String PROFILE = Profiles.KEY, TLS = "ucx.tls", LOOPBACK = "ucx.loopback_atomics";
    public static final String JOIN_TIMEOUT_S = "ucx.join_timeout_s", PEER_TIMEOUT_S = "ucx.peer_timeout_s";
    static final List<Param> PARAMS = List.of(
            Param.ofDouble(JOIN_TIMEOUT_S, 60, 0.5, 86_400, "seconds start-up waits for every node before naming the missing ones (rcc node --join-timeout overrides)"),
            Param.ofDouble(PEER_TIMEOUT_S, 5, 1, 3_600, "seconds a connected node may stay silent on the control plane (heartbeats every 0.2 s) before the run stops (rcc node --peer-timeout overrides)"),
            Param.ofChoice(PROFILE, CostProfile.DEFAULT, CostProfile.known(), "cost profile handed to the workers (ucx charges no simulated time)"),
            new Param(TLS, Param.Type.STRING, "", 0, 0, List.of(), "UCX transports (UCX_TLS), e.g. posix,self (shared memory) or tcp or rc,self; empty: UCX's own choice (or the UCX_TLS environment variable)"),
            Param.ofChoice(LOOPBACK, "auto", List.of("auto", "always"), "auto = where the code posts one-sided atomics and a peer's one-sided ops run on RDMA hardware (NIC atomics not atomic with CPU atomics), every CPU atomic on registered memory goes through UCX on the worker's own endpoint (loopback); always = on every transport (to measure its cost)"));

    @Override public String name() { return "ucx"; }

    @Override
    public String description() {
        return "the nodes talk through UCX (RDMA verbs, shared memory or TCP; one-sided verbs as UCX RMA/atomics, RPC as active messages); wall-clock time";
    }

    @Override public List<Param> parameters() { return PARAMS; }
    @Override public boolean virtualTime() { return false; }

    /** A missing or unknown libucp is bad input (exit 2, one line naming what to install), found before any run. */
    @Override
    public void check(Map<String, Object> settings) {
        try {
            Ucx.load();
        } catch (UcxException e) {
            throw new ConfigException(Config.FABRIC.key() + ": ucx: " + e.getMessage());
        }
    }

    @Override public double joinTimeoutS(Config c) { return ((Number) c.fabricSetting(JOIN_TIMEOUT_S)).doubleValue(); }
    @Override public double peerTimeoutS(Config c) { return ((Number) c.fabricSetting(PEER_TIMEOUT_S)).doubleValue(); }

    private static Map<String, String> ucxConfig(String tls) { return tls.isEmpty() ? Map.of() : Map.of("TLS", tls); }

    @Override
    public Fabric join(Config c, ClusterSettings cluster) {
        try {
            UcxFabric f = UcxFabric.join(c.threads(), CostProfile.load(String.valueOf(c.fabricSetting(PROFILE))),
                    ucxConfig(String.valueOf(c.fabricSetting(TLS))), cluster);
            f.loopbackAlways("always".equals(c.fabricSetting(LOOPBACK)));
            return f;
        } catch (UcxException e) {
            throw new ClusterFailure("node " + cluster.self() + ": " + e.getMessage());
        }
    }

    /** Every node in this process, each with its own UCP context (so their traffic still goes through UCX). */
    @Override
    public Fabric create(FabricSetup s) {
        try {
            UcxFabric f = UcxFabric.inProcess(s.nodes(), s.threads(), CostProfile.load(s.s(PROFILE)), ucxConfig(s.s(TLS)));
            f.loopbackAlways("always".equals(s.s(LOOPBACK)));
            return f;
        } catch (UcxException e) {
            throw new ConfigException(Config.FABRIC.key() + ": ucx: " + e.getMessage());
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
        m.put("ucx.loopback_atomics", (double) f.loopbackAtomicCount());
        for (String info : f.lanes().values()) {
            Lanes l = Lanes.parse(info);
            m.merge("ucx.peers.onesided." + l.oneSided(), 1.0, Double::sum);
            for (String tl : l.transports()) m.merge("ucx.peers.tl." + tl, 1.0, Double::sum);
        }
        return m;
    }
}
