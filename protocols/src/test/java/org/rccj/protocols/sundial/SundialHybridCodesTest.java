package org.rccj.protocols.sundial;

import org.rccj.protocols.HybridCodesSuite;

/** Every one of SUNDIAL's 64 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class SundialHybridCodesTest extends HybridCodesSuite {
    SundialHybridCodesTest() { super("sundial", SundialFactory.STAGES, 64, "all-rpc", "all-onesided", "READ+RENEW+COMMIT", "LOCK+LOG+RELEASE"); }
}
