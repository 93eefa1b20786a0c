package org.rccj.workloads.tatp;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** sub_nbr is s_id's 15 decimal digits, packed 4 bits per digit, and decodes back to s_id. */
class SubNbrTest {
    @Test
    void digitsArePackedDecimal() {
        assertEquals(0x1234L, SubNbr.fromSubscriber(1234));
        assertEquals(0L, SubNbr.fromSubscriber(0));
        assertEquals(0x999_999_999_999_999L, SubNbr.fromSubscriber(999_999_999_999_999L));
    }

    @Test
    void roundTrips() {
        for (long s : new long[] {0, 1, 9, 10, 99, 100, 65_535, 1_000_000, 123_456_789_012_345L, 999_999_999_999_999L}) {
            assertEquals(s, SubNbr.toSubscriber(SubNbr.fromSubscriber(s)), "s_id " + s);
        }
        for (long s = 0; s < 100_000; s += 7) assertEquals(s, SubNbr.toSubscriber(SubNbr.fromSubscriber(s)));
    }

    @Test
    void rejectsMoreThanFifteenDigits() {
        assertThrows(IllegalArgumentException.class, () -> SubNbr.fromSubscriber(1_000_000_000_000_000L));
        assertThrows(IllegalArgumentException.class, () -> SubNbr.fromSubscriber(-1));
    }
}
