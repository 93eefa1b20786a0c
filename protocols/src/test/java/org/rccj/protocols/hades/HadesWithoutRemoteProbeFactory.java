package org.rccj.protocols.hades;

import java.util.List;
import org.rccj.framework.api.Stage;
import org.rccj.framework.config.Param;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;

/**
 * Test-only protocol "hades-noprobe": HADES whose commit step 2 skips probing the NIC's remote filters, so
 * a local writer never squashes the remote readers of its lines (L-R conflicts go unseen).
 */
public final class HadesWithoutRemoteProbeFactory implements ProtocolFactory {
    @Override public String name() { return "hades-noprobe"; }
    @Override public String description() { return "TEST ONLY: HADES without the commit-time probe of the NIC's remote filters (not serializable)"; }
    @Override public List<Stage> stages() { return HadesFactory.STAGES; }
    @Override public List<Param> parameters() { return HadesOptions.params(); }

    @Override
    public Protocol create(ProtocolSetup setup) {
        return new HadesProtocol(setup.hybrid(), HadesOptions.of(setup.options())) {
            @Override protected boolean probeRemoteFiltersAtCommit() { return false; }
        };
    }
}
