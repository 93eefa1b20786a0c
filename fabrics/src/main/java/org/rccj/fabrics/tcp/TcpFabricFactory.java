package org.rccj.fabrics.tcp;

import java.util.List;
import org.rccj.fabrics.NamedFabric;
import org.rccj.fabrics.Profiles;
import org.rccj.fabrics.cluster.ClusterFabricFactory;
import org.rccj.fabrics.cluster.ClusterSettings;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.run.Config;
import org.rccj.primitives.CostProfile;
import org.rccj.primitives.Fabric;

/**
 * Registers {@code tcp}: one OS process per node over TCP ({@link TcpFabric}). A process joins its cluster before the
 * run (rcc node, or the launcher behind rcc run) and hands the joined fabric to the runner; it cannot be built inside
 * a single process, so {@link #create} refuses with what to do instead.
 */
public final class TcpFabricFactory extends NamedFabric implements ClusterFabricFactory {
    static final String PROFILE = Profiles.KEY;
    /** Seconds start-up waits for a missing node before naming it; seconds a connected node may stay silent. */
    public static final String JOIN_TIMEOUT_S = "tcp.join_timeout_s", PEER_TIMEOUT_S = "tcp.peer_timeout_s";
    /** The connection layout: one per process pair, or one per (worker thread, peer node). */
    public static final String CONNECTIONS = "tcp.connections";
    static final List<Param> PARAMS = List.of(
            Param.ofChoice(PROFILE, CostProfile.DEFAULT, CostProfile.known(), "cost profile handed to the workers (tcp charges no simulated time)"),
            Param.ofDouble(JOIN_TIMEOUT_S, 60, 0.5, 86_400, "seconds start-up waits for every node before naming the missing ones (rcc node --join-timeout overrides)"),
            Param.ofDouble(PEER_TIMEOUT_S, 5, 1, 3_600, "seconds a connected node may stay silent (heartbeats every 0.2 s) before the run stops (rcc node --peer-timeout overrides)"),
            Param.ofChoice(CONNECTIONS, TcpSettings.Connections.PAIR.key(),
                    java.util.Arrays.stream(TcpSettings.Connections.values()).map(TcpSettings.Connections::key).toList(),
                    "connection layout: pair = one connection per process pair shared by the workers; thread = one per (worker thread, peer node)"));

    public TcpFabricFactory() {
        super("tcp", "one OS process per node over TCP (rcc run spawns them on this host; rcc node by hand or under srun); wall-clock time", PARAMS, false);
    }

    /**
     * The artifact's PA needs passive RPCs (a COMMIT request with no reply message); tcp replies to every RPC
     * ({@code Endpoint.passiveRpc} false: its worker learns completion only from a reply), so it refuses
     * {@code passive_ack: true} rather than honour half of it.
     */
    @Override
    public void checkPassiveAck(boolean passiveAck) {
        if (passiveAck) {
            String key = Config.PASSIVE_ACK.key();
            throw new ConfigException(key + ": true needs RPCs without a reply message, which fabric tcp does not"
                    + " carry; set " + key + ": false (the default) or use fabric sim, local or ucx");
        }
    }

    @Override public double joinTimeoutS(Config c) { return ((Number) c.fabricSetting(JOIN_TIMEOUT_S)).doubleValue(); }
    @Override public double peerTimeoutS(Config c) { return ((Number) c.fabricSetting(PEER_TIMEOUT_S)).doubleValue(); }

    @Override
    public Fabric join(Config c, ClusterSettings cluster) {
        return TcpFabric.join(c.threads(), CostProfile.load(String.valueOf(c.fabricSetting(PROFILE))),
                new TcpSettings(cluster, TcpSettings.Connections.of(String.valueOf(c.fabricSetting(CONNECTIONS)))));
    }
}
