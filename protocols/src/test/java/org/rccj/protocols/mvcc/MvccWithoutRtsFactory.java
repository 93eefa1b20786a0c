package org.rccj.protocols.mvcc;

import org.rccj.protocols.TestOnlyProtocol;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolSetup;

/** Test-only protocol "mvcc-nortsraise": MVCC whose reads never raise rts, so W1 cannot see them (not serializable). */
public final class MvccWithoutRtsFactory extends TestOnlyProtocol {
    public MvccWithoutRtsFactory() { super("mvcc-nortsraise", "MVCC whose reads do not raise rts (not serializable)", MvccFactory.STAGES); }

    @Override
    public Protocol create(ProtocolSetup setup) {
        MvccTuple tuple = new MvccTuple(MvccSettings.DEFAULT_SLOTS) {
            @Override boolean needsRtsRaise(long rts, long ts) { return false; }
        };
        return new MvccProtocol(setup.hybrid(), tuple);
    }
}
