package org.rccj.protocols.sundial;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.protocols.TornReads;

/** With torn one-sided READs injected, SUNDIAL still verifies, tearing really happened, and the double read caught some. */
class SundialTornReadTest {
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ", "READ+RENEW"})
    void sundialSurvivesTornReads(String code) { TornReads.assertSurvived("sundial", code, "sundial_read_retries"); }

    /** A read's record and version id come from the same write (see {@link TornReads#assertReadsMatchVersions}). */
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ"})
    void readsMatchTheirVersionsUnderTornReads(String code) {
        TornReads.assertReadsMatchVersions("sundial", code, "workload.first_cell", 0);
    }
}
