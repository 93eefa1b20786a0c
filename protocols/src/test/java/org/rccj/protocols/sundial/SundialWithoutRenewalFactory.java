package org.rccj.protocols.sundial;

import java.util.List;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Stage;
import org.rccj.framework.txn.Access;

/** Test-only protocol "sundial-norenew": SUNDIAL that commits without renewing expired read leases (not serializable). */
public final class SundialWithoutRenewalFactory implements ProtocolFactory {
    @Override public String name() { return "sundial-norenew"; }
    @Override public String description() { return "TEST ONLY: SUNDIAL that never renews read leases (not serializable)"; }
    @Override public List<Stage> stages() { return SundialFactory.STAGES; }

    @Override
    public Protocol create(ProtocolSetup setup) {
        SundialTuple tuple = new SundialTuple() {
            @Override boolean needsRenewal(Access a, long rtsWord, long cts) { return false; }
        };
        return new SundialProtocol(setup.hybrid(), tuple);
    }
}
