package org.rccj.cli;

import java.util.List;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.api.Stage;

/** Test-only protocol without stages: one hybrid code, nothing to rank; cannot actually run. */
public final class FakeSoloFactory implements ProtocolFactory {
    @Override public String name() { return "fakesolo"; }
    @Override public String description() { return "test-only protocol with no stage (one hybrid code)"; }
    @Override public List<Stage> stages() { return List.of(); }
    @Override public List<Param> parameters() { return List.of(); }
    @Override public Protocol create(ProtocolSetup setup) { throw new UnsupportedOperationException("fakesolo cannot run"); }
}
