package org.rccj.protocols.sundial;

/** What SUNDIAL counts per coroutine for {@code summary.json}'s extra block ({@code sundial_<name>}, summed after the run). */
enum SundialCounters {
    /** Read leases that ended before the commit timestamp and were extended (instead of aborting). */
    RENEWALS_OK,
    /** Renewals that failed: the version was replaced or the tuple locked with too short a lease. */
    RENEWALS_FAILED,
    /** Reads of a tuple locked by a writer that had not started overwriting it (served the old version). */
    READS_OF_LOCKED,
    /** Reads repeated because the double-read check saw the tuple change. */
    READ_RETRIES,
    /** Extra CAS rounds in LOCK and RENEW because a concurrent renewal moved rts. */
    CAS_RETRIES
}
