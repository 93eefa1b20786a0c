package org.rccj.protocols.occ;

import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.spi.Protocol;
import org.rccj.framework.spi.ProtocolSetup;
import org.rccj.protocols.TestOnlyProtocol;

/** Test-only protocol "occ-novalidate": OCC with the VALIDATE stage skipped, to show the checker catches it. */
public final class OccWithoutValidationFactory extends TestOnlyProtocol {
    public OccWithoutValidationFactory() { super("occ-novalidate", "OCC that skips validation (not serializable)", OccFactory.STAGES); }

    @Override
    public Protocol create(ProtocolSetup setup) {
        return new OccProtocol(setup.hybrid()) {
            @Override protected OccValidate validation(CoroutineContext ctx) { return new SkipValidation(ctx); }
        };
    }
}
