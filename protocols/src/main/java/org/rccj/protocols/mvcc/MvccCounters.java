package org.rccj.protocols.mvcc;

/** One coroutine's figures for {@code summary.json}'s extra block (summed over coroutines after the run). */
final class MvccCounters {
    /** Reads served from a slot older than the tuple's newest version (what a single-version protocol could not do). */
    long readsOlderVersion;
    /** Reads of a tuple locked by a later writer, served without waiting or aborting. */
    long readsPastLock;
    /** Reads repeated because the double-read check saw the tuple change. */
    long readRetries;
    /** Extra rounds because a concurrent reader raised rts between our READ and our CAS. */
    long rtsCasRetries;

    void add(MvccCounters o) {
        readsOlderVersion += o.readsOlderVersion;
        readsPastLock += o.readsPastLock;
        readRetries += o.readRetries;
        rtsCasRetries += o.rtsCasRetries;
    }
}
