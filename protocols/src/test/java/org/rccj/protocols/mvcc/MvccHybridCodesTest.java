package org.rccj.protocols.mvcc;

import org.rccj.protocols.HybridCodesSuite;

/** Every one of MVCC's 32 hybrid codes runs SmallBank serializably with the money invariant on sim; four on local. */
class MvccHybridCodesTest extends HybridCodesSuite {
    MvccHybridCodesTest() { super("mvcc", MvccFactory.STAGES, 32, "all-rpc", "all-onesided", "READ+COMMIT+RELEASE", "LOCK+LOG"); }
}
