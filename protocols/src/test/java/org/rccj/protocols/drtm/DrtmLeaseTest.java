package org.rccj.protocols.drtm;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import org.rccj.framework.config.ConfigException;
import org.rccj.framework.run.RunResult;
import org.rccj.protocols.Runs;

/** Read leases: granted, shared, confirmed, keeping writers out; DELTA against per-node clock skew. */
class DrtmLeaseTest {
    private static Object[] hot(Object... more) {
        Object[] base = {"protocol", "drtm", "coroutines", 8, "workload.accounts_per_thread", 20,
                "workload.hot_probability", 0.9, "duration_ms", 2.0};
        Object[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void leasesAreGrantedSharedConfirmedAndKeepWritersOut() {
        for (String code : new String[] {"all-rpc", "all-onesided"}) {
            RunResult r = Runs.run(Runs.smallBank(hot("hybrid", code)));
            assertTrue(r.verification.passed(), code + ": " + r.verification);
            assertTrue(r.extra.get("read_leases_granted") > 0, code + ": " + r.extra);
            assertTrue(r.extra.get("read_leases_shared") > 0, code + ": " + r.extra);
            assertTrue(r.extra.get("lease_confirmations") > 0, code + ": " + r.extra);
            assertTrue(r.abortReasons.getOrDefault("lock_lease_held", 0L) > 0, code + ": no writer met an unexpired lease " + r.abortReasons);
        }
    }

    @Test
    void aLeaseShorterThanTheTransactionCannotBeConfirmed() {
        RunResult r = Runs.run(Runs.smallBank(hot("protocol_options.lease_us", 0.5, "protocol_options.ro_lease_us", 0.5,
                "protocol_options.delta_us", 0, "protocol_options.clock_skew_us", 0)));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.abortReasons.getOrDefault("lease_expired", 0L) > 0, r.abortReasons.toString());
    }

    /** The default DELTA covers the default skew: with short leases (many takeovers at expiry) no lease is broken. */
    @Test
    void defaultDeltaCoversTheSkew() {
        RunResult r = Runs.run(Runs.smallBank(hot("protocol_options.lease_us", 20, "protocol_options.ro_lease_us", 40,
                "protocol_options.audit_leases", true)));
        assertTrue(r.verification.passed(), r.verification.toString());
        assertTrue(r.extra.get("clock_skew_spread_us") > 0, r.extra.toString());
        assertTrue(r.extra.get("lease_confirmations") > 100, r.extra.toString());
        assertEquals(0.0, r.extra.get("lease_violations_observed"), r.extra.toString());
    }

    /** DELTA below the skew: writers on fast clocks take over leases readers on slow clocks still confirm. */
    @Test
    void deltaBelowTheSkewLetsWritersBreakLeases() {
        RunResult r = Runs.run(Runs.smallBank(hot("protocol_options.lease_us", 20, "protocol_options.ro_lease_us", 40,
                "protocol_options.delta_us", 0, "protocol_options.clock_skew_us", 50, "protocol_options.audit_leases", true)));
        assertTrue(r.extra.get("clock_skew_spread_us") > 20, r.extra.toString());
        assertTrue(r.extra.get("lease_violations_observed") > 0, r.extra.toString());
    }

    @Test
    void leaseMustExceedDelta() {
        ConfigException e = assertThrows(ConfigException.class,
                () -> Runs.run(Runs.smallBank("protocol", "drtm", "protocol_options.lease_us", 5, "protocol_options.delta_us", 10)));
        assertTrue(e.getMessage().contains("lease_us"), e.getMessage());
    }

    @Test
    void sameSeedSameRun() {
        Object[] cfg = hot("protocol_options.lease_us", 20, "protocol_options.ro_lease_us", 40);
        RunResult a = Runs.run(Runs.smallBank(cfg)), b = Runs.run(Runs.smallBank(cfg));
        assertEquals(a.commits(), b.commits());
        assertEquals(a.abortReasons, b.abortReasons);
        assertEquals(a.extra, b.extra);
        Object[] other = java.util.Arrays.copyOf(cfg, cfg.length + 2);
        other[cfg.length] = "seed";
        other[cfg.length + 1] = 7;
        RunResult c = Runs.run(Runs.smallBank(other));
        assertNotEquals(a.extra, c.extra, "the seed must matter");
    }
}
