package org.rccj.protocols.sundial;

import org.rccj.protocols.TestOnlyProtocol;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.txn.Access;

/** Test-only protocol "sundial-norenew": SUNDIAL that commits without renewing expired read leases (not serializable). */
public final class SundialWithoutRenewalFactory extends TestOnlyProtocol {
    public SundialWithoutRenewalFactory() { super("sundial-norenew", "SUNDIAL that never renews read leases (not serializable)", SundialFactory.STAGES); }

    @Override
    public Protocol create(ProtocolSetup setup) {
        SundialTuple tuple = new SundialTuple() {
            @Override boolean needsRenewal(Access a, long rtsWord, long cts) { return false; }
        };
        return new SundialProtocol(setup.hybrid(), tuple);
    }
}
