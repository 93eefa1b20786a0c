package org.rccj.protocols.nowait;

import java.util.List;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Registers NOWAIT with the framework. */
public final class NowaitFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.LOCK, Stage.LOG, Stage.COMMIT, Stage.RELEASE);

    @Override public String name() { return "nowait"; }
    @Override public String description() { return "2PL, no wait: lock at access time (reads exclusive or shared: read_locks), abort on any conflict; log, commit, release"; }
    @Override public List<Stage> stages() { return STAGES; }
    /** LOCK: the lock CAS; RELEASE: the FAA that drops a shared read lock. */
    @Override public List<Stage> nicAtomicStages() { return List.of(Stage.LOCK, Stage.RELEASE); }
    @Override public List<Param> parameters() { return NowaitSettings.PARAMS; }
    @Override public Protocol create(ProtocolSetup setup) { return new NowaitProtocol(setup.hybrid(), NowaitSettings.of(setup).readLocks()); }
}
