package org.rccj.results;

import java.util.List;
import org.rccj.framework.api.Stage;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Test-only protocol so that a {@link org.rccj.framework.run.Config} can be resolved. */
public final class FakeProtocolFactory implements ProtocolFactory {
    @Override public String name() { return "fakeproto"; }
    @Override public String description() { return "test-only protocol"; }
    @Override public List<Stage> stages() {
        return List.of(Stage.READ, Stage.LOCK, Stage.VALIDATE, Stage.LOG, Stage.COMMIT, Stage.RELEASE);
    }
    @Override public Protocol create(ProtocolSetup setup) { throw new UnsupportedOperationException("fake"); }
}
