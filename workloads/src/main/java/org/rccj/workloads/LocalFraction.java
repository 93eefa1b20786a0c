package org.rccj.workloads;

import java.util.SplittableRandom;
import java.util.function.LongSupplier;
import org.rccj.framework.config.Param;
import org.rccj.framework.store.Table;

/**
 * The {@code local_fraction} knob (HADES's evaluation): each key a transaction picks is on the coordinator's
 * own node with this probability and on another node otherwise, drawn from the workload's own distribution
 * restricted to that side (rejection sampling). Off (null) by default, which draws nothing extra, so runs
 * without it are unchanged.
 */
public final class LocalFraction {
    /** Give up rejecting after this many draws (a distribution with no key on the wanted side). */
    static final int MAX_DRAWS = 10_000;
    /** The option's key in {@code workload}. */
    public static final String KEY = "local_fraction";

    private LocalFraction() {}

    public static Param param() {
        return Param.ofOptionalDouble(KEY, 0, 1,
                "share of picked keys on the coordinator's own node (the rest on other nodes); off by default (keys as the distribution falls)");
    }

    /** A key from {@code draw}, local with probability {@code fraction} (a null fraction: the draw as it is). */
    public static long pick(Double fraction, SplittableRandom rng, LongSupplier draw, Table t, int node, int nodes) {
        if (fraction == null) return draw.getAsLong();
        boolean local = rng.nextDouble() < fraction;
        long k = draw.getAsLong();
        for (int i = 0; i < MAX_DRAWS && (t.nodeOf(k, nodes) == node) != local; i++) k = draw.getAsLong();
        return k;
    }
}
