package org.rccj.workloads.tatp;

/**
 * SUBSCRIBER.sub_nbr, the 15-digit subscriber number: s_id in decimal, zero-padded (TATP spec), kept as packed
 * BCD in one 8-byte field (4 bits per digit, digit 0 = least significant). It is derivable from s_id and back,
 * so UpdateLocation, InsertCallForwarding and DeleteCallForwarding find a subscriber by sub_nbr by decoding it
 * instead of reading a secondary index (FaSST keeps a SUB_NBR -> S_ID table; most RDMA implementations derive it).
 */
final class SubNbr {
    static final int DIGITS = 15;
    static final int BITS_PER_DIGIT = 4;
    private static final long DIGIT_MASK = (1L << BITS_PER_DIGIT) - 1;

    private SubNbr() {}

    static long fromSubscriber(long sId) {
        if (sId < 0 || sId >= 1_000_000_000_000_000L) throw new IllegalArgumentException("s_id " + sId + " has more than 15 digits");
        long bcd = 0;
        for (int d = 0; d < DIGITS && sId != 0; d++, sId /= 10) bcd |= (sId % 10) << (d * BITS_PER_DIGIT);
        return bcd;
    }

    static long toSubscriber(long subNbr) {
        long sId = 0;
        for (int d = DIGITS - 1; d >= 0; d--) sId = sId * 10 + ((subNbr >>> (d * BITS_PER_DIGIT)) & DIGIT_MASK);
        return sId;
    }
}
