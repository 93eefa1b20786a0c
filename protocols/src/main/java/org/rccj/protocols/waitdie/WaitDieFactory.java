package org.rccj.protocols.waitdie;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.config.Settings;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Registers WAITDIE with the framework. */
public final class WaitDieFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.LOCK, Stage.LOG, Stage.COMMIT, Stage.RELEASE);

    @Override public String name() { return "waitdie"; }
    /** WAITDIE: read()/write() lock one item each and yield (rtx/waitdie_rdma.h:448-530), one-sided and RPC alike: decision 0201. */
    @Override public boolean artifactFetchesOneByOne(int code, Map<String, Object> options) { return true; }
    @Override public String description() { return "2PL, wait-die: lock at access time (reads exclusive or shared: read_locks); an older transaction waits, a younger one dies; log, commit, release"; }
    @Override public List<Stage> stages() { return STAGES; }
    /** LOCK: the lock and waiter-mark CAS; RELEASE and COMMIT: the waiter-mark CAS (undo), RELEASE also the shared-read-lock FAA. */
    @Override public List<Stage> nicAtomicStages(Map<String, Object> options) { return List.of(Stage.LOCK, Stage.RELEASE, Stage.COMMIT); }
    @Override public List<Param> parameters() { return WaitDieSettings.PARAMS; }

    /** {@code retry_us} paces the one-sided LOCK's retries: nothing to pace when LOCK goes over RPC. */
    @Override
    public List<String> optionsWithoutEffect(int code, Map<String, Object> options) {
        if ((code & Stage.LOCK.bit) != 0 || !ProtocolFactory.set(options, WaitDieSettings.PARAMS.get(0))) return List.of();
        return List.of(Settings.optionKey(WaitDieSettings.RETRY) + ": " + options.get(WaitDieSettings.RETRY) + " has no effect: it paces the"
                + " one-sided LOCK's retries, and this hybrid code sends LOCK over RPC (whose waits " + WaitDieSettings.POLL + " paces); bind LOCK one-sided or drop"
                + " the option");
    }

    @Override
    public Protocol create(ProtocolSetup setup) {
        WaitDieSettings s = WaitDieSettings.of(setup);
        return new WaitDieProtocol(setup.hybrid(), s.retryUs(), s.pollUs(), s.readLocks());
    }
}
