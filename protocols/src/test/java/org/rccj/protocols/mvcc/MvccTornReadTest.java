package org.rccj.protocols.mvcc;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.rccj.protocols.TornReads;

/** With torn one-sided READs injected, MVCC still verifies, tearing really happened, and the double read caught some. */
class MvccTornReadTest {
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ", "READ+LOCK"})
    void mvccSurvivesTornReads(String code) { TornReads.assertSurvived("mvcc", code, "mvcc_read_retries"); }

    /** A read's record and version id come from the same write (see {@link TornReads#assertReadsMatchVersions}). */
    @ParameterizedTest
    @ValueSource(strings = {"all-onesided", "READ"})
    void readsMatchTheirVersionsUnderTornReads(String code) {
        TornReads.assertReadsMatchVersions("mvcc", code, "workload.first_cell", 1, "protocol_options.version_slots", 2);
    }
}
