package org.rccj.cli;

import java.util.List;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Test-only protocol: six stages (no RENEW, DISPATCH, FORWARD), one option; cannot actually run. */
public final class FakeProtocolFactory implements ProtocolFactory {
    @Override public String name() { return "fakeproto"; }
    @Override public String description() { return "test-only protocol with six stages"; }
    @Override public List<Stage> stages() {
        return List.of(Stage.READ, Stage.LOCK, Stage.VALIDATE, Stage.LOG, Stage.COMMIT, Stage.RELEASE);
    }
    @Override public List<Param> parameters() {
        return List.of(Param.ofInt("lease_us", 10, 1, 1000, "lease length, us"));
    }
    @Override public Protocol create(ProtocolSetup setup) { throw new UnsupportedOperationException("fakeproto cannot run"); }
}
