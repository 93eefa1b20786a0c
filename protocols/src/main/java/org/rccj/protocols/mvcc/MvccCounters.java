package org.rccj.protocols.mvcc;

/** What MVCC counts per coroutine for {@code summary.json}'s extra block ({@code mvcc_<name>}, summed after the run). */
enum MvccCounters {
    /** Reads served from a slot older than the tuple's newest version (what a single-version protocol could not do). */
    READS_OLDER_VERSION,
    /** Reads of a tuple locked by a later writer, served without waiting or aborting. */
    READS_PAST_LOCK,
    /** Reads repeated because the double-read check saw the tuple change. */
    READ_RETRIES,
    /** Extra rounds because a concurrent reader raised rts between our READ and our CAS. */
    RTS_CAS_RETRIES
}
