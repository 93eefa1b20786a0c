package org.rccj.protocols.drtm;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rccj.framework.api.CoroutineContext;

/**
 * DrTM's figures for summary.json "extra", counted per coroutine (no sharing between threads) over the
 * measured interval only (as commits and aborts are), and summed after the run.
 */
final class DrtmCounters {
    long commits, htmRegions, htmCommits, htmConflictAborts, htmCapacityAborts, fallbackCommits, readOnlyCommits;
    long leasesGranted, leasesShared, leaseConfirms, leaseViolations;

    private static boolean measuring(CoroutineContext ctx) {
        long t = ctx.now();
        return t >= ctx.measureStart() && t < ctx.endTime();
    }

    void leaseGranted(CoroutineContext ctx) { if (measuring(ctx)) leasesGranted++; }
    void leaseShared(CoroutineContext ctx) { if (measuring(ctx)) leasesShared++; }
    void leaseConfirmed(CoroutineContext ctx) { if (measuring(ctx)) leaseConfirms++; }
    void leaseViolation(CoroutineContext ctx) { if (measuring(ctx)) leaseViolations++; }
    void htmRegion(CoroutineContext ctx) { if (measuring(ctx)) htmRegions++; }
    void htmConflict(CoroutineContext ctx) { if (measuring(ctx)) htmConflictAborts++; }
    void htmCapacity(CoroutineContext ctx) { if (measuring(ctx)) htmCapacityAborts++; }

    void committed(CoroutineContext ctx, DrtmExecutor.Path path, boolean htm) {
        if (!measuring(ctx)) return;
        commits++;
        if (htm) htmCommits++;
        if (path == DrtmExecutor.Path.FALLBACK) fallbackCommits++;
        if (path == DrtmExecutor.Path.READ_ONLY) readOnlyCommits++;
    }

    private void add(DrtmCounters o) {
        commits += o.commits;
        htmRegions += o.htmRegions;
        htmCommits += o.htmCommits;
        htmConflictAborts += o.htmConflictAborts;
        htmCapacityAborts += o.htmCapacityAborts;
        fallbackCommits += o.fallbackCommits;
        readOnlyCommits += o.readOnlyCommits;
        leasesGranted += o.leasesGranted;
        leasesShared += o.leasesShared;
        leaseConfirms += o.leaseConfirms;
        leaseViolations += o.leaseViolations;
    }

    private static double rate(long n, long of) { return of == 0 ? 0 : (double) n / of; }

    /** The summed figures, named as they appear in summary.json. */
    static Map<String, Double> report(List<DrtmCounters> all, DrtmClock clock, boolean audit) {
        DrtmCounters s = new DrtmCounters();
        for (DrtmCounters c : all) s.add(c);
        Map<String, Double> m = new LinkedHashMap<>();
        m.put("htm_regions", (double) s.htmRegions);
        m.put("htm_commits", (double) s.htmCommits);
        m.put("htm_conflict_aborts", (double) s.htmConflictAborts);
        m.put("htm_capacity_aborts", (double) s.htmCapacityAborts);
        m.put("htm_conflict_abort_rate", rate(s.htmConflictAborts, s.htmRegions));
        m.put("htm_capacity_abort_rate", rate(s.htmCapacityAborts, s.htmRegions));
        m.put("fallback_commits", (double) s.fallbackCommits);
        m.put("fallback_rate", rate(s.fallbackCommits, s.commits));
        m.put("read_only_commits", (double) s.readOnlyCommits);
        m.put("read_leases_granted", (double) s.leasesGranted);
        m.put("read_leases_shared", (double) s.leasesShared);
        m.put("lease_confirmations", (double) s.leaseConfirms);
        m.put("clock_skew_spread_us", clock.spread() / 1e3);
        if (audit) m.put("lease_violations_observed", (double) s.leaseViolations);
        return m;
    }
}
