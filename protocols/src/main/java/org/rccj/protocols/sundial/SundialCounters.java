package org.rccj.protocols.sundial;

/** One coroutine's figures for {@code summary.json}'s extra block (summed over coroutines after the run). */
final class SundialCounters {
    /** Read leases that ended before the commit timestamp and were extended (instead of aborting). */
    long renewalsOk;
    /** Renewals that failed: the version was replaced or the tuple locked with too short a lease. */
    long renewalsFailed;
    /** Reads of a tuple locked by a writer that had not started overwriting it (served the old version). */
    long readsOfLocked;
    /** Reads repeated because the double-read check saw the tuple change. */
    long readRetries;
    /** Extra CAS rounds in LOCK and RENEW because a concurrent renewal moved rts. */
    long casRetries;

    void add(SundialCounters o) {
        renewalsOk += o.renewalsOk;
        renewalsFailed += o.renewalsFailed;
        readsOfLocked += o.readsOfLocked;
        readRetries += o.readRetries;
        casRetries += o.casRetries;
    }
}
