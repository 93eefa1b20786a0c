package org.rccj.framework.store;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** The open-addressed location cache: what a preload holds, what a full cache does, invalidation. */
class LocationCacheTest {
    @Test
    void aPreloadWithRoomHoldsEveryKey() {
        LocationCache c = new LocationCache(1 << 12);
        int keys = (1 << 12) * 2 / 3;
        for (int k = 0; k < keys; k++) assertTrue(c.preload(1, k, 64L * k), "key " + k + " did not fit");
        for (int k = 0; k < keys; k++) assertEquals(64L * k, c.get(1, k));
        assertEquals(-1, c.get(2, 5), "another table's key is a miss");
    }

    @Test
    void aBoundedCacheHoldsWhatFitsAndSaysSo() {
        LocationCache c = new LocationCache(16);
        int fit = 0;
        for (int k = 0; k < 100; k++) if (c.preload(0, k, k)) fit++;
        assertEquals(16, fit, "a preload fills every slot and refuses the rest");
        int found = 0;
        for (int k = 0; k < 100; k++) if (c.get(0, k) == k) found++;
        assertEquals(16, found);
        c.put(0, 500, 7);                       // a run-time fill replaces an entry when there is no room
        assertEquals(7, c.get(0, 500));
    }

    @Test
    void anInvalidatedEntryIsAMissButKeysProbedPastItStayReachable() {
        LocationCache c = new LocationCache(16);
        for (int k = 0; k < 16; k++) c.put(3, k, 10 + k);
        c.invalidate(3, 4);
        assertEquals(-1, c.get(3, 4));
        for (int k = 0; k < 16; k++) if (k != 4) assertEquals(10 + k, c.get(3, k));
        c.put(3, 4, 99);
        assertEquals(99, c.get(3, 4));
    }
}
