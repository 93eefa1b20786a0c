package org.rccj.workloads.tpcc;

import java.util.SplittableRandom;
import org.rccj.framework.store.Hashing;

/**
 * The specification's non-uniform random numbers (clause 2.1.6): NURand(A, x, y) =
 * (((random(0, A) | random(x, y)) + C) % (y - x + 1)) + x. With {@code scale_down} the ranges shrink, and A
 * shrinks with them (to the power of two minus one nearest below A x range / spec range), so the skew keeps
 * its shape. The run-time constant C of C_LAST differs from the load-time one as clause 2.1.6.1 requires.
 * All constants come from the seed.
 */
final class NuRand {
    static final int SPEC_CUSTOMERS = 3000, SPEC_ITEMS = 100_000, SPEC_LAST_NAMES = 1000;
    static final int A_CUSTOMER = 1023, A_ITEM = 8191, A_LAST = 255;

    final int customers, items, lastNames;
    final int aCustomer, aItem, aLast;
    final int cCustomer, cItem, cLastLoad, cLastRun;

    NuRand(long seed, int customers, int items, int lastNames) {
        this.customers = customers;
        this.items = items;
        this.lastNames = lastNames;
        aCustomer = scaledA(A_CUSTOMER, customers, SPEC_CUSTOMERS);
        aItem = scaledA(A_ITEM, items, SPEC_ITEMS);
        aLast = scaledA(A_LAST, lastNames, SPEC_LAST_NAMES);
        SplittableRandom r = new SplittableRandom(Hashing.mix(seed, 0x7CCC0057L));
        cCustomer = r.nextInt(aCustomer + 1);
        cItem = r.nextInt(aItem + 1);
        cLastLoad = r.nextInt(aLast + 1);
        int run;
        if (aLast == A_LAST) {
            // clause 2.1.6.1: 65 <= |C_run - C_load| <= 119, and neither 96 nor 112
            int delta;
            do {
                run = r.nextInt(aLast + 1);
                delta = Math.abs(run - cLastLoad);
            } while (delta < 65 || delta > 119 || delta == 96 || delta == 112);
        } else {
            run = aLast == 0 ? 0 : (cLastLoad + 1 + r.nextInt(aLast)) % (aLast + 1);
        }
        cLastRun = run;
    }

    static int scaledA(int specA, int range, int specRange) {
        long x = (long) (specA + 1) * range / specRange;
        return Integer.highestOneBit((int) Math.max(1, x)) - 1;
    }

    static int uniform(SplittableRandom r, int lo, int hi) { return lo + r.nextInt(hi - lo + 1); }

    static int next(SplittableRandom r, int a, int c, int lo, int hi) {
        return (((uniform(r, 0, a) | uniform(r, lo, hi)) + c) % (hi - lo + 1)) + lo;
    }

    /** C_ID for a transaction: NURand(1023, 1, 3000). */
    int customerId(SplittableRandom r) { return next(r, aCustomer, cCustomer, 1, customers); }

    /** OL_I_ID: NURand(8191, 1, 100000). */
    int itemId(SplittableRandom r) { return next(r, aItem, cItem, 1, items); }

    /** C_LAST code for a by-name transaction: NURand(255, 0, 999). */
    int lastNameRun(SplittableRandom r) { return next(r, aLast, cLastRun, 0, lastNames - 1); }

    /** C_LAST code of a loaded customer beyond the first 1000: NURand(255, 0, 999) with the load constant. */
    int lastNameLoad(SplittableRandom r) { return next(r, aLast, cLastLoad, 0, lastNames - 1); }
}
