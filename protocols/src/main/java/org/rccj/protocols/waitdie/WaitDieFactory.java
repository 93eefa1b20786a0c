package org.rccj.protocols.waitdie;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Stage;

/** Registers WAITDIE with the framework. */
public final class WaitDieFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.LOCK, Stage.LOG, Stage.COMMIT, Stage.RELEASE);
    static final List<Param> PARAMS = List.of(
            Param.ofDouble("retry_us", 1.0, 0.01, 1e6, "one-sided LOCK: pause between CAS+READ tries of a waiting transaction, us"),
            Param.ofDouble("poll_us", 1.0, 0.01, 1e6, "RPC LOCK: how often a worker re-attempts the requests it parked, us (needed when RELEASE is one-sided)"));

    @Override public String name() { return "waitdie"; }
    @Override public String description() { return "2PL, wait-die: lock at access time; an older transaction waits, a younger one dies; log, commit, release"; }
    @Override public List<Stage> stages() { return STAGES; }
    @Override public List<Param> parameters() { return PARAMS; }

    @Override
    public Protocol create(ProtocolSetup setup) {
        return new WaitDieProtocol(setup.hybrid(), (double) setup.options().get("retry_us"), (double) setup.options().get("poll_us"));
    }
}
