package org.rccj.protocols.occ;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;
import org.rccj.framework.config.Param;
import org.rccj.framework.txn.Access;

/**
 * The software bookkeeping of FaRM-style OCC as HADES's "SW-Impl" has it, as modelled CPU charges in its
 * five overhead categories: managing the read/write sets, updating per-line versions, the read-atomicity
 * check (per-line version compare and its two copies), read-before-write (copying the whole record into
 * the write set) and conflict detection (lock/unlock and validation bookkeeping, polling). The network
 * part of conflict detection is the protocol's own LOCK, VALIDATE and RELEASE stages. Costs are per access
 * (the framework has no field layouts, so nothing is per line). Sizes are fitted so the categories take the shares
 * of execution time the HADES paper measured on SW-Impl (docs/calibration.md); used by {@code occ} with
 * {@code protocol_options.software: sw-impl} and by HADES-H's software local path.
 */
public final class SwImplCosts {
    public static final int SETS = 0, VERSION = 1, ATOMICITY = 2, RD_BEFORE_WR = 3, CONFLICT = 4;
    public static final List<String> CATEGORIES = List.of("sets", "update_version", "read_atomicity", "rd_before_wr", "conflict_detection");

    static final String SW_SET_NS = "sw_set_ns", SW_ATOMICITY_NS = "sw_atomicity_ns", SW_VALIDATE_NS = "sw_validate_ns",
            SW_RD_BEFORE_WR_NS = "sw_rd_before_wr_ns", SW_VERSION_NS = "sw_version_ns", SW_LOCK_NS = "sw_lock_ns";

    public static List<Param> params() {
        return List.of(
                Param.ofInt(SW_SET_NS, 600, 0, 1_000_000, "SW-Impl: CPU per access to manage the read or write set (insert, look up, iterate at commit)"),
                Param.ofInt(SW_ATOMICITY_NS, 1430, 0, 1_000_000, "SW-Impl: CPU per record read for the read-atomicity check (per-line version compare) and its two copies"),
                Param.ofInt(SW_VALIDATE_NS, 1000, 0, 1_000_000, "SW-Impl: CPU per read-set entry at validation (building the re-read, polling, comparing)"),
                Param.ofInt(SW_RD_BEFORE_WR_NS, 1470, 0, 1_000_000, "SW-Impl: CPU per written record to copy the whole record into the write set"),
                Param.ofInt(SW_VERSION_NS, 100, 0, 1_000_000, "SW-Impl: CPU per written record to bump its per-line versions"),
                Param.ofInt(SW_LOCK_NS, 200, 0, 1_000_000, "SW-Impl: CPU per written record for lock and unlock (building the CAS batch, polling, checking)"));
    }

    public final long setNs, atomicityNs, validateNs, rdBeforeWrNs, versionNs, lockNs;
    /** Charged ns per category (this coroutine's). */
    public final long[] charged = new long[CATEGORIES.size()];

    public SwImplCosts(Map<String, Object> options) {
        setNs = (int) options.get(SW_SET_NS);
        atomicityNs = (int) options.get(SW_ATOMICITY_NS);
        validateNs = (int) options.get(SW_VALIDATE_NS);
        rdBeforeWrNs = (int) options.get(SW_RD_BEFORE_WR_NS);
        versionNs = (int) options.get(SW_VERSION_NS);
        lockNs = (int) options.get(SW_LOCK_NS);
    }

    private boolean unsettled;

    private void charge(CoroutineContext ctx, int category, long ns) {
        if (ns <= 0) return;
        charged[category] += ns;
        ctx.charge(ns);
        unsettled = true;
    }

    /**
     * After a run of charges: lets the simulated core's clock catch up before the coroutine posts again
     * (on sim a core that charged microseconds without yielding would post from the future and reserve
     * its NIC's egress ahead of the other workers' earlier posts).
     */
    public void settle(CoroutineContext ctx) {
        if (!unsettled) return;
        unsettled = false;
        ctx.yieldNow();
    }

    /** Execution, per fetched access: its set entry; a read's atomicity check and copies, or a write's copy into the write set. */
    public void fetched(CoroutineContext ctx, Access a) {
        charge(ctx, SETS, setNs);
        if (a.write) charge(ctx, RD_BEFORE_WR, rdBeforeWrNs);
        else charge(ctx, ATOMICITY, atomicityNs);
    }

    /** Commit, per written record: bump its per-line versions. */
    public void versionBumped(CoroutineContext ctx, Access a) { charge(ctx, VERSION, versionNs); }

    /** Lock and unlock bookkeeping for one written record. */
    public void locked(CoroutineContext ctx) { charge(ctx, CONFLICT, lockNs); }

    /** Validation bookkeeping for one read-set entry (or, in HADES-H, one local record). */
    public void validated(CoroutineContext ctx) { charge(ctx, CONFLICT, validateNs); }

    /** Adds every category's charged time to {@code out} under {@code prefix + name + "_ns"}. */
    public static void sum(Iterable<SwImplCosts> all, String prefix, Map<String, Double> out) {
        long[] s = new long[CATEGORIES.size()];
        for (SwImplCosts c : all) for (int i = 0; i < s.length; i++) s[i] += c.charged[i];
        for (int i = 0; i < s.length; i++) out.put(prefix + CATEGORIES.get(i) + "_ns", (double) s[i]);
    }

    public static Map<String, Double> empty() { return new LinkedHashMap<>(); }
}
