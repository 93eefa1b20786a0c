package org.rccj.protocols.mvcc;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Registers MVCC (multi-version timestamp ordering with a fixed number of version slots per tuple). */
public final class MvccFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.READ, Stage.LOCK, Stage.LOG, Stage.COMMIT, Stage.RELEASE);

    @Override public String name() { return "mvcc"; }
    /** MVCC: read()/write() read or lock one item each and yield (rtx/mvcc_rdma.h:50-135, 241-255), one-sided and RPC alike: decision 0201. */
    @Override public boolean artifactFetchesOneByOne(int code, Map<String, Object> options) { return true; }
    @Override public String description() { return "multi-version timestamp ordering: read a version by timestamp, lock writes at access, log, commit new version, release (RCC)"; }
    @Override public List<Stage> stages() { return STAGES; }
    /** LOCK: the tts CAS; READ: the rts CAS. */
    @Override public List<Stage> nicAtomicStages(Map<String, Object> options) { return List.of(Stage.LOCK, Stage.READ); }
    @Override public List<Param> parameters() { return MvccSettings.PARAMS; }

    @Override
    public Protocol create(ProtocolSetup setup) {
        return new MvccProtocol(setup.hybrid(), MvccSettings.of(setup).versionSlots());
    }
}
