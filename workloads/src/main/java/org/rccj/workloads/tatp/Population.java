package org.rccj.workloads.tatp;

import org.rccj.framework.store.Hashing;

import static org.rccj.workloads.tatp.Tatp.*;

/**
 * The initial rows of one subscriber, derived from (seed, s_id) alone, so the load is deterministic and the
 * invariant check can recompute what was loaded. TATP population rules: 1-4 ACCESS_INFO rows with distinct
 * ai_type in 1..4; 1-4 SPECIAL_FACILITY rows with distinct sf_type in 1..4, is_active = 1 with probability 85%;
 * per special facility 0-3 CALL_FORWARDING rows with distinct start_time in {0, 8, 16}. A row's end_time is
 * start_time + rand(1..8) ({@code spec}) or rand(1..24) ({@code steady}, the distribution InsertCallForwarding
 * writes and the table drifts to; FaSST populates this way). Reused: {@link #fill} overwrites every field.
 */
final class Population {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;
    private static final int ACTIVE_PERCENT = 85;
    private static final int MAX_DURATION = 8;
    private static final int ALPHABET = 26;

    private long state;
    /** Bit (type - 1) set when the row of that ai_type / sf_type exists. */
    int accessInfoMask, specialFacilityMask;
    /** Per sf_type - 1: bit (start_time / 8) set when that CALL_FORWARDING row exists. */
    final int[] callForwardingMask = new int[SF_TYPES];
    final long[] aiData1 = new long[AI_TYPES], aiData2 = new long[AI_TYPES], aiData3 = new long[AI_TYPES], aiData4 = new long[AI_TYPES];
    final long[] sfActive = new long[SF_TYPES], sfErrorCntrl = new long[SF_TYPES], sfDataA = new long[SF_TYPES], sfDataB = new long[SF_TYPES];
    final long[][] cfEndTime = new long[SF_TYPES][START_TIMES], cfNumberx = new long[SF_TYPES][START_TIMES];
    long bits, hex, byte2Low, byte2High, mscLocation, vlrLocation;

    private long next() { return Hashing.mix(state += GOLDEN); }
    private int below(int n) { return (int) Long.remainderUnsigned(next(), n); }

    /** A uniformly chosen subset of {@code k} of {@code n} items, as a bit mask. */
    private int subset(int k, int n) {
        if (k == 0) return 0;
        int m;
        do { m = (int) (next() & ((1 << n) - 1)); } while (Integer.bitCount(m) != k);
        return m;
    }

    /** {@code chars} random upper-case letters, one per byte. */
    private long letters(int chars) {
        long v = 0;
        for (int i = 0; i < chars; i++) v |= (long) ('A' + below(ALPHABET)) << (8 * i);
        return v;
    }

    void fill(long seed, long sId, boolean steadyEndTimes) {
        state = Hashing.mix(seed, sId);
        bits = next() & ((1L << SUB_BIT_COUNT) - 1);
        hex = next() & ((1L << (4 * SUB_HEX_COUNT)) - 1);
        byte2Low = next();
        byte2High = next() & 0xFFFF;
        mscLocation = next() & 0xFFFF_FFFFL;
        vlrLocation = next() & 0xFFFF_FFFFL;
        accessInfoMask = subset(1 + below(AI_TYPES), AI_TYPES);
        for (int t = 0; t < AI_TYPES; t++) {
            aiData1[t] = below(256);
            aiData2[t] = below(256);
            aiData3[t] = letters(3);
            aiData4[t] = letters(5);
        }
        specialFacilityMask = subset(1 + below(SF_TYPES), SF_TYPES);
        for (int t = 0; t < SF_TYPES; t++) {
            boolean exists = (specialFacilityMask & (1 << t)) != 0;
            sfActive[t] = below(100) < ACTIVE_PERCENT ? 1 : 0;
            sfErrorCntrl[t] = below(256);
            sfDataA[t] = below(256);
            sfDataB[t] = letters(5);
            callForwardingMask[t] = exists ? subset(below(START_TIMES + 1), START_TIMES) : 0;
            for (int s = 0; s < START_TIMES; s++) {
                long start = (long) s * START_TIME_STEP;
                cfEndTime[t][s] = steadyEndTimes ? 1 + below(MAX_END_TIME) : start + 1 + below(MAX_DURATION);
                cfNumberx[t][s] = Long.remainderUnsigned(next(), NUMBERX_RANGE);
            }
        }
    }

    /** CALL_FORWARDING rows this subscriber starts with. */
    int callForwardingRows() {
        int n = 0;
        for (int m : callForwardingMask) n += Integer.bitCount(m);
        return n;
    }
}
