package org.rccj.protocols.mvcc;

import java.util.List;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Stage;

/** Test-only protocol "mvcc-nortsraise": MVCC whose reads never raise rts, so W1 cannot see them (not serializable). */
public final class MvccWithoutRtsFactory implements ProtocolFactory {
    @Override public String name() { return "mvcc-nortsraise"; }
    @Override public String description() { return "TEST ONLY: MVCC whose reads do not raise rts (not serializable)"; }
    @Override public List<Stage> stages() { return MvccFactory.STAGES; }

    @Override
    public Protocol create(ProtocolSetup setup) {
        MvccTuple tuple = new MvccTuple(MvccSettings.DEFAULT_SLOTS) {
            @Override boolean needsRtsRaise(long rts, long ts) { return false; }
        };
        return new MvccProtocol(setup.hybrid(), tuple);
    }
}
