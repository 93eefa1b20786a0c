package org.rccj.results;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/**
 * Deterministic rounding of measured figures for result files: a double becomes a {@link BigDecimal}
 * with a fixed number of decimals (half-even), written in plain notation with at least one decimal,
 * so the same double always gives the same text and large rates are never written as {@code 1.2E7}.
 */
final class Decimals {
    /** Decimals of microsecond figures (0.1 ns resolution). */
    static final int US = 4;
    /** Decimals of shares and rates in [0, 1]. */
    static final int SHARE = 6;
    /** Decimals of throughputs (transactions per second). */
    static final int TPS = 3;
    /** Decimals of seconds. */
    static final int SECONDS = 9;

    private Decimals() {}

    /** {@code v} rounded to {@code places} decimals, or null for NaN and infinities. */
    static BigDecimal round(double v, int places) {
        if (!Double.isFinite(v)) return null;
        return atLeastOneDecimal(BigDecimal.valueOf(v).setScale(places, RoundingMode.HALF_EVEN));
    }

    /** {@code v} rounded to {@code digits} significant digits, or null for NaN and infinities. */
    static BigDecimal significant(double v, int digits) {
        if (!Double.isFinite(v)) return null;
        return atLeastOneDecimal(BigDecimal.valueOf(v).round(new MathContext(digits, RoundingMode.HALF_EVEN)));
    }

    /** Nanoseconds to microseconds, rounded to {@link #US} decimals. */
    static BigDecimal us(double ns) { return round(ns / 1000.0, US); }

    /** Plain text of a rounded value, "" for null (CSV). */
    static String text(BigDecimal d) { return d == null ? "" : d.toPlainString(); }

    private static BigDecimal atLeastOneDecimal(BigDecimal d) {
        BigDecimal s = d.stripTrailingZeros();
        if (s.signum() == 0) return BigDecimal.ZERO.setScale(1);
        return s.scale() < 1 ? s.setScale(1) : s;
    }
}
