package org.rccj.protocols.drtm;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/**
 * Registers DrTM (EuroSys'15) with the framework: 2PL with exclusive locks for writes and read leases for
 * reads on remote records, an (emulated) HTM region for records on the coordinator's node, a lock-based
 * fallback path, and per-node clock skew covered by DELTA.
 *
 * <p>Multi-round transactions. DrTM must know a transaction's remote records before XBEGIN (no network
 * inside an RTM region), so the paper requires the read/write sets up front; SmallBank declares every
 * access before its single fetch. Here each {@code fetch()} round locks and leases the keys it adds
 * before the workload sees them, and the emulated HTM region simply spans the rounds (the emulation,
 * unlike the hardware, survives network waits). A faithful DrTM would run a transaction with dependent
 * keys as Calvin's OLLP: a reconnaissance execution reads the keys without locks, the real execution
 * declares them all up front and aborts (and re-runs the reconnaissance) if a round asks for a key it did
 * not declare. That is not implemented.
 */
public final class DrtmFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.LOCK, Stage.READ, Stage.LOG, Stage.COMMIT);

    @Override public String name() { return "drtm"; }

    @Override
    public String description() {
        return "2PL with exclusive locks, read leases and an emulated HTM region for local records (DrTM)";
    }

    @Override public List<Stage> stages() { return STAGES; }

    /** LOCK and READ (the lease): CAS on the lock word, which the HTM commit also CASes. */

    @Override public List<Stage> nicAtomicStages(Map<String, Object> options) { return List.of(Stage.LOCK, Stage.READ); }

    /** Local accesses stay on the CPU whatever local_access says: local records are read and written inside the HTM region (DrTM's design). */

    @Override public boolean localAccessThroughNic() { return false; }
    @Override public List<Param> parameters() { return DrtmSettings.PARAMS; }

    @Override public void checkOptions(ProtocolSetup setup) { DrtmSettings.of(setup); }

    @Override
    public Protocol create(ProtocolSetup setup) {
        return new DrtmProtocol(setup.hybrid(), DrtmSettings.of(setup), setup.cluster().seed(), setup.cluster().nodes());
    }
}
