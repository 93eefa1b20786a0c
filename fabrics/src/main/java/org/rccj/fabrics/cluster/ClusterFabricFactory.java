package org.rccj.fabrics.cluster;

import org.rccj.framework.run.Config;
import org.rccj.framework.spi.FabricFactory;
import org.rccj.framework.spi.FabricSetup;
import org.rccj.framework.config.ConfigException;
import org.rccj.primitives.Fabric;

/**
 * A fabric whose nodes are separate processes on the {@link ClusterNode} control plane ({@code tcp}, later
 * {@code ucx}). {@code rcc node} joins one node through {@link #join}; {@code rcc run} spawns the nodes on this host
 * ({@link LocalLauncher}). Such a fabric cannot be built inside one process, so {@link #create} refuses.
 */
public interface ClusterFabricFactory extends FabricFactory {
    /** Seconds start-up waits for every node, as {@code config} says ({@code rcc node --join-timeout} overrides). */
    double joinTimeoutS(Config config);

    /** Seconds a connected node may stay silent, as {@code config} says ({@code rcc node --peer-timeout} overrides). */
    double peerTimeoutS(Config config);

    /**
     * Joins this process's node of the cluster {@code cluster} describes and returns the fabric, ready to run
     * (blocks until every node joined; a {@link ClusterFailure} names what went wrong). The fabric is a {@link
     * org.rccj.primitives.ProcessGroup}: the runner meets the other nodes and gathers their reports through it.
     */
    Fabric join(Config config, ClusterSettings cluster);

    @Override
    default Fabric create(FabricSetup s) {
        throw new ConfigException(Config.FABRIC.key() + ": " + name() + " runs one OS process per node; start it with rcc run (which spawns the nodes) or rcc node");
    }
}
