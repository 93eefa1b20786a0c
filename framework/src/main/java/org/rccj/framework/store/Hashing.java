package org.rccj.framework.store;

/** Deterministic 64-bit mixing (SplitMix64 finalizer): same results on every JVM and run. */
public final class Hashing {
    private Hashing() {}

    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    public static long mix(long a, long b) { return mix(a * 0x9E3779B97F4A7C15L + mix(b)); }
}
