package org.rccj.protocols.occ;

import java.util.List;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Stage;

/** Registers OCC with the framework. */
public final class OccFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.READ, Stage.LOCK, Stage.VALIDATE, Stage.LOG, Stage.COMMIT, Stage.RELEASE);

    @Override public String name() { return "occ"; }
    @Override public String description() { return "optimistic: read, lock write set, validate read set, log, commit, release (DrTM+H)"; }
    @Override public List<Stage> stages() { return STAGES; }
    @Override public Protocol create(ProtocolSetup setup) { return new OccProtocol(setup.hybrid()); }
}
