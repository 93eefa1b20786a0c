package org.rccj.protocols.hades;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Registers HADES / HADES-H (Kokolis et al.): Bloom-filter and SmartNIC assisted distributed transactions. */
public final class HadesFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.READ, Stage.VALIDATE);

    @Override public String name() { return "hades"; }

    @Override
    public String description() {
        return "HADES/HADES-H: hardware Bloom filters and a SmartNIC track read/write sets; remote READ tracked by the NIC, "
                + "Intend-to-commit/Ack exchange (sim only)";
    }

    @Override public List<Stage> stages() { return STAGES; }

    /** none: its one-sided stages READ and WRITE; its NIC work is the simulated NIC's own. */

    @Override public List<Stage> nicAtomicStages(Map<String, Object> options) { return List.of(); }

    /** Local accesses stay on the CPU whatever local_access says: the cores access local memory directly; the NIC hardware tracks remote accesses. */

    @Override public boolean localAccessThroughNic() { return false; }
    /** Its commits send no acknowledged COMMIT RPC that could be passive: passive_ack changes nothing. */
    @Override public boolean passiveAckApplies() { return false; }
    @Override public List<Param> parameters() { return HadesOptions.params(); }

    @Override
    public Protocol create(ProtocolSetup setup) {
        return new HadesProtocol(setup.hybrid(), HadesOptions.of(setup.options()));
    }

    @Override public void checkFabric(String fabric) { refuseUnlessSimulated(fabric); }

    /** Above this wait for a free Locking Buffer per committed transaction, ns, the buffers' count bounds the result. */
    static final double LOCKING_BUFFER_WAIT_WARN_NS = 1000;

    /**
     * The Locking Buffers' count is a setting the paper does not state; when committing transactions spent long waiting for
     * a free one, the result measures that setting more than HADES, and the warning says so.
     */
    @Override
    public List<String> warnings(Map<String, Double> extra, long commits, Map<String, Object> options) {
        Double waits = extra.get("hades.locking_buffer_waits");
        if (waits == null || commits == 0) return List.of();
        HadesOptions o = HadesOptions.of(options);
        double nsPerCommit = waits * o.stallNs() / commits;
        if (nsPerCommit < LOCKING_BUFFER_WAIT_WARN_NS) return List.of();
        return List.of(String.format(java.util.Locale.ROOT, "HADES's transactions waited %.1f us per commit for a free Locking Buffer"
                + " (%s = %s per node, a count the paper does not state): the result is bound by that setting; raise it or run fewer"
                + " transactions per node (threads x coroutines)", nsPerCommit / 1000, org.rccj.framework.config.Settings.optionKey(HadesOptions.LOCKING_BUFFERS),
                o.lockingBuffers()));
    }

    static void refuseUnlessSimulated(String fabric) {
        if (!"sim".equals(fabric)) {
            throw new ConfigException("fabric: protocol hades needs its simulated Bloom-filter/SmartNIC hardware, which only fabric sim has; use fabric=sim");
        }
    }
}
