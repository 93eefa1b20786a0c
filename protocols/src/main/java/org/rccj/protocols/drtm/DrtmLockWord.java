package org.rccj.protocols.drtm;

/**
 * DrTM's lock word: one 8-byte word per tuple that holds either an exclusive owner or a read lease.
 * <pre>
 *   0                       free
 *   bit 63 set              EXCLUSIVE: bits 0..62 are the owner's transaction id (an attempt id; it is
 *                           also how the emulated HTM marks the lines it is committing)
 *   bit 63 clear, not 0     READ LEASE: the lease end time in ns on the protocol clock ({@link DrtmClock})
 *                           of the reader that set it
 * </pre>
 * The rules that read a word are here, in one place, and take the clock reading as an argument: every
 * stage (one-sided loop, RPC handler, emulated HTM) decides with these functions. {@code delta} is the
 * bound on the clock skew between any two nodes' protocol clocks: a reader confirms a lease only while
 * {@code now < end - delta} on its clock, a writer takes over a lease only once {@code now > end + delta}
 * on its clock, so with per-node offsets within ±delta the writer's takeover comes after every
 * confirmation of that lease in real time.
 */
final class DrtmLockWord {
    static final long FREE = 0;
    /** The exclusive bit. */
    static final long EXCLUSIVE = Long.MIN_VALUE;
    private static final long OWNER_MASK = ~EXCLUSIVE;
    /** Returned by the {@code next} rules: the CAS loop is over (its last CAS decides). */
    static final long DONE = -1;

    final long delta;

    DrtmLockWord(long deltaNs) { this.delta = deltaNs; }

    static long exclusive(long owner) {
        if ((owner & EXCLUSIVE) != 0 || owner == 0) throw new IllegalArgumentException("owner id " + owner);
        return EXCLUSIVE | owner;
    }

    static boolean isExclusive(long w) { return (w & EXCLUSIVE) != 0; }
    static boolean isLease(long w) { return w != FREE && !isExclusive(w); }
    static long owner(long w) { return w & OWNER_MASK; }

    /** A reader may still rely on a lease ending at {@code end}. */
    boolean confirmable(long end, long now) { return now < end - delta; }

    /** A writer may take over a lease ending at {@code end}: no reader can confirm it any more. */
    boolean expiredForWriter(long end, long now) { return now > end + delta; }

    /** A word seen by a writer that does not keep it out (free, or a lease past its end + delta). */
    boolean writable(long w, long now) { return w == FREE || (isLease(w) && expiredForWriter(w, now)); }

    /**
     * Exclusive lock (LOCK stage, and fallback locks of local records): after a CAS that expected
     * {@code expected} found {@code found}, the word the next CAS should expect, or {@link #DONE}.
     * Done when the CAS succeeded (found == expected), when an owner holds the word, or when an unexpired
     * lease keeps writers out; retried from a free word or over an expired lease.
     */
    long writerNext(long expected, long found, long now) {
        if (found == expected || isExclusive(found)) return DONE;
        if (found == FREE) return FREE;
        return expiredForWriter(found, now) ? found : DONE;
    }

    /**
     * Read lease (READ stage): done when the CAS installed the new lease, when an owner holds the word, or
     * when the lease found can still be confirmed (shared); a free word or a lease too close to its end
     * is replaced by the new lease (which always ends later: lease durations exceed delta).
     */
    long readerNext(long expected, long found, long now) {
        if (found == expected || isExclusive(found)) return DONE;
        if (found == FREE) return FREE;
        return confirmable(found, now) ? DONE : found;
    }

    /** The word a CAS loop ends up relying on: its own word if the last CAS succeeded, else what it found. */
    static long held(long expected, long found, long desired) { return found == expected ? desired : found; }
}
