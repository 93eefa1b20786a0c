package org.rccj.protocols.occ;

import org.rccj.protocols.HybridCodesSuite;

/** Every one of OCC's 64 hybrid codes runs SmallBank serializably with the money invariant, on sim and local. */
class OccHybridCodesTest extends HybridCodesSuite {
    OccHybridCodesTest() { super("occ", OccFactory.STAGES, 64); }
}
