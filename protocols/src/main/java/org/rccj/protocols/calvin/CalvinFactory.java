package org.rccj.protocols.calvin;

import java.util.List;
import org.rccj.framework.api.Stage;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/** Registers CALVIN with the framework. */
public class CalvinFactory implements ProtocolFactory {
    static final List<Stage> STAGES = List.of(Stage.DISPATCH, Stage.FORWARD, Stage.EPOCH_SYNC);

    @Override public String name() { return "calvin"; }
    @Override public String description() { return "deterministic: epoch batches broadcast and synchronised, locks in global order, values forwarded to the active participants, which execute; no aborts (Calvin)"; }
    @Override public List<Stage> stages() { return STAGES; }
    /** none: its one-sided stages only WRITE. */
    @Override public List<Stage> nicAtomicStages(Map<String, Object> options) { return List.of(); }
    /** Local accesses stay on the CPU whatever local_access says: each node executes on its own records; remote values are forwarded. */
    @Override public boolean localAccessThroughNic() { return false; }
    /** Its commits send no acknowledged COMMIT RPC that could be passive: passive_ack changes nothing. */
    @Override public boolean passiveAckApplies() { return false; }
    @Override public boolean fetchOneByOneApplies() { return false; }
    @Override public List<Param> parameters() { return CalvinSettings.PARAMS; }

    @Override
    public Protocol create(ProtocolSetup s) {
        CalvinSettings o = CalvinSettings.of(s);
        return new CalvinProtocol(s.hybrid(), o.epochUs(), o.batchBytes(), o.forwardBytes(), o.pollUs());
    }
}
