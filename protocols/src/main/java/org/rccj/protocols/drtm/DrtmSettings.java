package org.rccj.protocols.drtm;

import java.util.List;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.config.Param;
import org.rccj.framework.config.Settings;
import org.rccj.framework.spi.ProtocolSetup;

/** DrTM's {@code protocol_options}, resolved and checked. */
record DrtmSettings(long leaseNs, long readOnlyLeaseNs, long deltaNs, long clockSkewNs, int htmCapacityLines,
                    int htmRetries, boolean auditLeases) {
    static final String LEASE = "lease_us", RO_LEASE = "ro_lease_us", DELTA = "delta_us", SKEW = "clock_skew_us",
            CAPACITY = "htm_capacity_lines", RETRIES = "htm_retries", AUDIT = "audit_leases";

    static final List<Param> PARAMS = List.of(
            Param.ofDouble(LEASE, 400, 0.001, 1e6, "read-lease duration of read-write transactions, us (DrTM: 0.4 ms)"),
            Param.ofDouble(RO_LEASE, 1000, 0.001, 1e6, "read-lease duration of read-only transactions, us (DrTM: 1.0 ms)"),
            Param.ofDouble(DELTA, 10, 0, 1e6, "DELTA, the clock-uncertainty margin of lease checks, us; safe while >= clock_skew_us"),
            Param.ofDouble(SKEW, 5, 0, 1e6, "each node's protocol clock is off by a seeded amount within +-this, us"),
            Param.ofInt(CAPACITY, 512, 1, 1 << 20, "emulated HTM read/write-set capacity in 64-byte cache lines (L1: 512)"),
            Param.ofInt(RETRIES, 4, 0, 1000, "HTM conflict aborts of a transaction before it takes the lock-based fallback path"),
            Param.ofBoolean(AUDIT, false, "diagnostic: count lease confirmations a writer already broke (extra.lease_violations_observed)"));

    static DrtmSettings of(ProtocolSetup o) {
        DrtmSettings s = new DrtmSettings(ns(o, LEASE), ns(o, RO_LEASE), ns(o, DELTA), ns(o, SKEW),
                o.i(CAPACITY), o.i(RETRIES), o.b(AUDIT));
        // a lease replaced by a reader must end later than the one it replaces (see DrtmLockWord.readerNext)
        for (String k : List.of(LEASE, RO_LEASE)) {
            if (ns(o, k) <= s.deltaNs) {
                throw new ConfigException(Settings.optionKey(k) + ": " + o.d(k) + " must exceed " + Settings.optionKey(DELTA)
                        + " (" + o.d(DELTA) + ")");
            }
        }
        return s;
    }

    private static long ns(ProtocolSetup o, String k) { return Math.round(o.d(k) * 1e3); }
}
