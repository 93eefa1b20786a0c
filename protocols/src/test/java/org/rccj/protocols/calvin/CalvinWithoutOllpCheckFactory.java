package org.rccj.protocols.calvin;

import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolSetup;

/** Test-only protocol "calvin-noollpcheck": CALVIN that commits OLLP transactions without comparing their values. */
public final class CalvinWithoutOllpCheckFactory extends CalvinFactory {
    @Override public String name() { return "calvin-noollpcheck"; }
    @Override public String description() { return "TEST ONLY: CALVIN whose OLLP never checks the reconnaissance values (not correct)"; }

    @Override
    public Protocol create(ProtocolSetup s) {
        CalvinProtocol p = (CalvinProtocol) super.create(s);
        p.checkReconnaissance = false;
        return p;
    }
}
