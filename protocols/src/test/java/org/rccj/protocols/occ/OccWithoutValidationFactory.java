package org.rccj.protocols.occ;

import java.util.List;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.framework.spi.Stage;

/** Test-only protocol "occ-novalidate": OCC with the VALIDATE stage skipped, to show the checker catches it. */
public final class OccWithoutValidationFactory implements ProtocolFactory {
    @Override public String name() { return "occ-novalidate"; }
    @Override public String description() { return "TEST ONLY: OCC that skips validation (not serializable)"; }
    @Override public List<Stage> stages() { return OccFactory.STAGES; }

    @Override
    public Protocol create(ProtocolSetup setup) {
        return new OccProtocol(setup.hybrid()) {
            @Override protected OccValidate validation(CoroutineContext ctx) { return new SkipValidation(ctx); }
        };
    }
}
