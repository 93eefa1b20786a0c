package org.rccj.protocols.nowait;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.protocols.locking.ReadLocks;

/** Registers NOWAIT with the framework. */
public final class NowaitFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.LOCK, Stage.LOG, Stage.COMMIT, Stage.RELEASE);

    @Override public String name() { return "nowait"; }
    /** NOWAIT: read()/write() lock one item each and yield (rtx/nowait_rdma.h:446-530), one-sided and RPC alike: decision 0201. */
    @Override public boolean artifactFetchesOneByOne(int code, Map<String, Object> options) { return true; }
    @Override public String description() { return "2PL, no wait: lock at access time (reads exclusive or shared: read_locks), abort on any conflict; log, commit, release"; }
    @Override public List<Stage> stages() { return STAGES; }
    /**
     * LOCK: the lock CAS; RELEASE: the FAA that drops a shared read lock, so only with {@code read_locks: shared}
     * (with exclusive read locks a one-sided RELEASE is a WRITE of 0, and COMMIT's unlock likewise).
     */
    @Override
    public List<Stage> nicAtomicStages(Map<String, Object> options) {
        return ReadLocks.of(options) == ReadLocks.SHARED ? List.of(Stage.LOCK, Stage.RELEASE) : List.of(Stage.LOCK);
    }
    @Override public List<Param> parameters() { return NowaitSettings.PARAMS; }
    @Override public Protocol create(ProtocolSetup setup) { return new NowaitProtocol(setup.hybrid(), NowaitSettings.of(setup).readLocks()); }
}
