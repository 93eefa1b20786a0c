package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** The lock-word encoding and the rules every stage decides with. */
class DrtmLockWordTest {
    private static final long DELTA = 10_000;
    private final DrtmLockWord w = new DrtmLockWord(DELTA);

    @Test
    void encoding() {
        long tx = (12345L << 24) | 77;
        long x = DrtmLockWord.exclusive(tx);
        assertTrue(DrtmLockWord.isExclusive(x));
        assertFalse(DrtmLockWord.isLease(x));
        assertEquals(tx, DrtmLockWord.owner(x));
        long lease = DrtmClock.ORIGIN + 400_000;
        assertTrue(DrtmLockWord.isLease(lease));
        assertFalse(DrtmLockWord.isExclusive(lease));
        assertFalse(DrtmLockWord.isLease(DrtmLockWord.FREE));
        assertFalse(DrtmLockWord.isExclusive(DrtmLockWord.FREE));
        assertThrows(IllegalArgumentException.class, () -> DrtmLockWord.exclusive(0));
        assertThrows(IllegalArgumentException.class, () -> DrtmLockWord.exclusive(Long.MIN_VALUE | 5));
    }

    @Test
    void writerRule() {
        long now = 5_000_000, me = DrtmLockWord.exclusive(9), other = DrtmLockWord.exclusive(8);
        assertEquals(DrtmLockWord.DONE, w.writerNext(0, 0, now), "free word taken");
        assertEquals(DrtmLockWord.DONE, w.writerNext(0, other, now), "owner keeps it");
        long live = now + 1, justOver = now - DELTA, expired = now - DELTA - 1;
        assertEquals(DrtmLockWord.DONE, w.writerNext(0, live, now), "unexpired lease keeps writers out");
        assertEquals(DrtmLockWord.DONE, w.writerNext(0, justOver, now), "a lease is not over until end + DELTA has passed");
        assertEquals(expired, w.writerNext(0, expired, now), "expired lease: CAS over it");
        assertEquals(DrtmLockWord.DONE, w.writerNext(expired, expired, now), "took over the expired lease");
        assertEquals(0, w.writerNext(expired, 0, now), "lease vanished: CAS from free");
        assertEquals(me, DrtmLockWord.held(0, 0, me));
        assertEquals(other, DrtmLockWord.held(0, other, me));
        assertTrue(w.writable(0, now));
        assertTrue(w.writable(expired, now));
        assertFalse(w.writable(justOver, now));
        assertFalse(w.writable(other, now));
    }

    @Test
    void readerRule() {
        long now = 5_000_000, other = DrtmLockWord.exclusive(8);
        assertEquals(DrtmLockWord.DONE, w.readerNext(0, 0, now), "lease installed");
        assertEquals(DrtmLockWord.DONE, w.readerNext(0, other, now), "exclusively held");
        long usable = now + DELTA + 1, ending = now + DELTA;
        assertEquals(DrtmLockWord.DONE, w.readerNext(0, usable, now), "share a lease it can still confirm");
        assertEquals(ending, w.readerNext(0, ending, now), "renew a lease too close to its end");
        assertEquals(0, w.readerNext(ending, 0, now));
        assertTrue(w.confirmable(usable, now));
        assertFalse(w.confirmable(ending, now));
    }

    /**
     * Real-time safety of leases under skew: a reader (clock offset sr) confirms a lease ending at E at real
     * time t1, a writer (offset sw) takes it over at real time t2. With |offsets| <= DELTA, t2 > t1 always;
     * with offsets beyond DELTA some takeover precedes a confirmation.
     */
    @Test
    void deltaCoversSkew() {
        assertFalse(violationExists(DELTA, DELTA), "DELTA >= skew must keep writers after every confirmation");
        assertTrue(violationExists(DELTA, DELTA + 2_000), "skew beyond DELTA must allow a broken lease");
    }

    private boolean violationExists(long delta, long skew) {
        DrtmLockWord rules = new DrtmLockWord(delta);
        long end = 1_000_000;
        long step = 1_000;
        for (long sr = -skew; sr <= skew; sr += step) {
            for (long sw = -skew; sw <= skew; sw += step) {
                for (long t1 = end - 4 * skew - 2 * delta; t1 <= end + 4 * skew + 2 * delta; t1 += step) {
                    if (!rules.confirmable(end, t1 + sr)) continue;
                    for (long t2 = t1 - 4 * skew - 2 * delta; t2 <= t1; t2 += step) {
                        if (rules.expiredForWriter(end, t2 + sw)) return true;
                    }
                }
            }
        }
        return false;
    }
}
