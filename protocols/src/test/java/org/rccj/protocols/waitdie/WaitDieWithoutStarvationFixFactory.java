package org.rccj.protocols.waitdie;

import java.util.List;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Test-only protocol "waitdie-nofix": WAITDIE whose waiters never mark the waiter word (no starvation fix). */
public final class WaitDieWithoutStarvationFixFactory implements ProtocolFactory {
    @Override public String name() { return "waitdie-nofix"; }
    @Override public String description() { return "TEST ONLY: WAITDIE without the starvation fix"; }
    @Override public List<Stage> stages() { return WaitDieFactory.STAGES; }
    @Override public List<Param> parameters() { return WaitDieSettings.PARAMS; }

    @Override
    public Protocol create(ProtocolSetup setup) {
        WaitDieSettings s = WaitDieSettings.of(setup);
        return new WaitDieProtocol(setup.hybrid(), s.retryUs(), s.pollUs(), s.readLocks()) {
            @Override protected boolean marksWaiters() { return false; }
        };
    }
}
