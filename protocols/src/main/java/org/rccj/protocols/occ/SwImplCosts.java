package org.rccj.protocols.occ;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.config.Param;
import org.rccj.framework.runtime.CoroutineContext;
import org.rccj.framework.txn.Access;

/**
 * The software bookkeeping of FaRM-style OCC as HADES's "SW-Impl" has it, as modelled CPU charges in its
 * five overhead categories: managing the read/write sets, updating per-line versions, the read-atomicity
 * check (per-line version compare and its two copies), read-before-write (copying the whole record into
 * the write set) and conflict detection (lock/unlock and validation bookkeeping, polling). The network
 * parts of the last two are the protocol's own stages. Sizes are fitted so the categories take the shares
 * of execution time the HADES paper measured on SW-Impl (docs/calibration.md); used by {@code occ} with
 * {@code protocol_options.software: sw-impl} and by HADES-H's software local path.
 */
public final class SwImplCosts {
    public static final int SETS = 0, VERSION = 1, ATOMICITY = 2, RD_BEFORE_WR = 3, CONFLICT = 4;
    public static final List<String> CATEGORIES = List.of("sets", "update_version", "read_atomicity", "rd_before_wr", "conflict_detection");
    static final int LINE = 64;

    public static List<Param> params() {
        return List.of(
                Param.ofInt("sw_set_ns", 100, 0, 100_000, "SW-Impl: CPU per access to manage the read/write sets (insert, look up, iterate at commit)"),
                Param.ofInt("sw_copy_line_ns", 30, 0, 100_000, "SW-Impl: CPU per 64-byte line copied (read-atomicity copies, write-set copy)"),
                Param.ofInt("sw_version_line_ns", 15, 0, 100_000, "SW-Impl: CPU per line to check (atomicity) or bump (commit) a per-line version"),
                Param.ofInt("sw_conflict_ns", 120, 0, 100_000, "SW-Impl: CPU per lock/unlock or validation item (building, polling, checking)"));
    }

    public final long setNs, copyLineNs, versionLineNs, conflictNs;
    /** Charged ns per category (this coroutine's). */
    public final long[] charged = new long[CATEGORIES.size()];

    public SwImplCosts(Map<String, Object> options) {
        setNs = (int) options.get("sw_set_ns");
        copyLineNs = (int) options.get("sw_copy_line_ns");
        versionLineNs = (int) options.get("sw_version_line_ns");
        conflictNs = (int) options.get("sw_conflict_ns");
    }

    static int lines(Access a) { return (a.table.tupleBytes + LINE - 1) / LINE; }

    private void charge(CoroutineContext ctx, int category, long ns) {
        if (ns <= 0) return;
        charged[category] += ns;
        ctx.charge(ns);
    }

    /** Execution, per fetched access: set entry, atomicity check with its two copies, and for writes the copy into the write set. */
    public void fetched(CoroutineContext ctx, Access a) {
        int l = lines(a);
        charge(ctx, SETS, setNs);
        charge(ctx, ATOMICITY, l * (versionLineNs + 2 * copyLineNs));
        if (a.write) charge(ctx, RD_BEFORE_WR, l * copyLineNs);
    }

    /** Commit, per written record: bump its per-line versions. */
    public void versionBumped(CoroutineContext ctx, Access a) { charge(ctx, VERSION, lines(a) * versionLineNs); }

    /** Lock, unlock or validation bookkeeping for one item. */
    public void conflictItem(CoroutineContext ctx) { charge(ctx, CONFLICT, conflictNs); }

    /** Adds every category's charged time to {@code out} under {@code prefix + name + "_ns"}. */
    public static void sum(Iterable<SwImplCosts> all, String prefix, Map<String, Double> out) {
        long[] s = new long[CATEGORIES.size()];
        for (SwImplCosts c : all) for (int i = 0; i < s.length; i++) s[i] += c.charged[i];
        for (int i = 0; i < s.length; i++) out.put(prefix + CATEGORIES.get(i) + "_ns", (double) s[i]);
    }

    public static Map<String, Double> empty() { return new LinkedHashMap<>(); }
}
