package org.rccj.workloads.tatp;

import static org.junit.jupiter.api.Assertions.*;
import static org.rccj.workloads.tatp.Tatp.*;

import org.junit.jupiter.api.Test;

/** The initial rows follow the TATP population rules, with the shares the success rates rest on. */
class PopulationTest {
    private static final int SUBSCRIBERS = 40_000;

    @Test
    void rowCountsAndShares() {
        Population p = new Population();
        long aiRows = 0, sfRows = 0, active = 0, cfRows = 0;
        long[] aiCount = new long[AI_TYPES + 1], cfCount = new long[START_TIMES + 1];
        for (long s = 0; s < SUBSCRIBERS; s++) {
            p.fill(11, s, false);
            int ai = Integer.bitCount(p.accessInfoMask), sf = Integer.bitCount(p.specialFacilityMask);
            assertTrue(ai >= 1 && ai <= AI_TYPES && p.accessInfoMask < (1 << AI_TYPES), "access_info mask " + p.accessInfoMask);
            assertTrue(sf >= 1 && sf <= SF_TYPES && p.specialFacilityMask < (1 << SF_TYPES), "special_facility mask " + p.specialFacilityMask);
            aiCount[ai]++;
            aiRows += ai;
            sfRows += sf;
            int rows = 0;
            for (int t = 0; t < SF_TYPES; t++) {
                int cf = Integer.bitCount(p.callForwardingMask[t]);
                if ((p.specialFacilityMask & (1 << t)) == 0) {
                    assertEquals(0, p.callForwardingMask[t], "call forwarding without its special facility");
                    continue;
                }
                active += p.sfActive[t];
                cfCount[cf]++;
                cfRows += cf;
                rows += cf;
                for (int st = 0; st < START_TIMES; st++) {
                    if ((p.callForwardingMask[t] & (1 << st)) == 0) continue;
                    long start = (long) st * START_TIME_STEP, end = p.cfEndTime[t][st];
                    assertTrue(end > start && end <= start + 8, "spec end_time " + end + " for start " + start);
                    assertTrue(p.cfNumberx[t][st] >= 0 && p.cfNumberx[t][st] < NUMBERX_RANGE);
                }
            }
            assertEquals(rows, p.callForwardingRows());
        }
        // a given ai_type / sf_type exists with probability (1+2+3+4)/16 = 0.625
        assertEquals(0.625, aiRows / (double) (SUBSCRIBERS * AI_TYPES), 0.01);
        assertEquals(0.625, sfRows / (double) (SUBSCRIBERS * SF_TYPES), 0.01);
        for (int k = 1; k <= AI_TYPES; k++) assertEquals(0.25, aiCount[k] / (double) SUBSCRIBERS, 0.01, "subscribers with " + k + " access_info rows");
        assertEquals(0.85, active / (double) sfRows, 0.01);
        // 0-3 call forwardings per facility, uniformly: a given start_time is taken with probability 0.5
        for (int k = 0; k <= START_TIMES; k++) assertEquals(0.25, cfCount[k] / (double) sfRows, 0.01, "facilities with " + k + " call forwardings");
        assertEquals(0.5, cfRows / (double) (sfRows * START_TIMES), 0.01);
    }

    @Test
    void steadyEndTimesSpanTheDay() {
        Population p = new Population();
        long[] seen = new long[MAX_END_TIME + 1];
        for (long s = 0; s < 5000; s++) {
            p.fill(3, s, true);
            for (int t = 0; t < SF_TYPES; t++) {
                for (int st = 0; st < START_TIMES; st++) {
                    long end = p.cfEndTime[t][st];
                    assertTrue(end >= 1 && end <= MAX_END_TIME, "end_time " + end);
                    seen[(int) end]++;
                }
            }
        }
        for (int e = 1; e <= MAX_END_TIME; e++) assertTrue(seen[e] > 0, "end_time " + e + " never drawn");
    }

    @Test
    void deterministicFromSeedAndSubscriber() {
        Population a = new Population(), b = new Population();
        int differ = 0;
        for (long s = 0; s < 1000; s++) {
            a.fill(5, s, false);
            b.fill(5, s, false);
            assertEquals(a.accessInfoMask, b.accessInfoMask);
            assertEquals(a.specialFacilityMask, b.specialFacilityMask);
            assertArrayEquals(a.callForwardingMask, b.callForwardingMask);
            assertEquals(a.vlrLocation, b.vlrLocation);
            b.fill(6, s, false);
            if (a.accessInfoMask != b.accessInfoMask || a.vlrLocation != b.vlrLocation) differ++;
        }
        assertTrue(differ > 900, "the seed barely matters: " + differ);
    }
}
