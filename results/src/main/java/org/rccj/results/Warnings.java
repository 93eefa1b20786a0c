package org.rccj.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;

/**
 * Why a run's figures may not mean what they seem: summary.json's {@code warnings} list, printed after a run,
 * marked in sweep.csv and hybrid.csv and in plots. A run with warnings still succeeds (exit 0).
 */
public final class Warnings {
    /** Fewer commits than this in the measured window make noisy figures. */
    public static final long FEW_COMMITS = 100;

    private Warnings() {}

    /** The warnings of a result; deterministic for sim runs (the core count matters only on the local fabric). */
    public static List<String> of(RunResult r) {
        return of(r, Runtime.getRuntime().availableProcessors());
    }

    static List<String> of(RunResult r, int cores) {
        List<String> out = new ArrayList<>();
        Config c = r.config;
        long commits = r.commits();
        double windowUs = r.measuredS * 1e6;
        if (commits == 0) {
            out.add("no commits in the measured window: every figure is empty; raise duration_ms (or warmup_ms) or check the config");
        } else if (commits < FEW_COMMITS) {
            out.add("only " + commits + " commits in the measured window (fewer than " + FEW_COMMITS + "): the figures are noisy; raise duration_ms");
        }
        double maxUs = r.total.latency.max() / 1e3;
        if (commits > 0 && windowUs < maxUs) {
            out.add(String.format(Locale.ROOT, "the measured window (%.1f us) is shorter than the longest transaction (%.1f us): "
                    + "transactions straddle its ends; raise duration_ms", windowUs, maxUs));
        }
        if (!c.fabricFactory().virtualTime() && (long) c.nodes() * c.threads() > cores) {
            out.add("oversubscribed: " + (c.nodes() * c.threads()) + " worker threads (" + c.nodes() + " nodes x " + c.threads() + " threads) on "
                    + cores + " cores: workers time-share cores, so " + c.fabric() + "-fabric wall-clock figures understate the protocol");
        }
        if (!r.freeLogic.isEmpty()) {
            out.add("profile " + c.fabricSetting("profile") + " has no logic_ns." + c.workloadName().toLowerCase(Locale.ROOT) + ".TYPE for "
                    + String.join(", ", r.freeLogic) + ": that logic costs no simulated CPU; measure it (./rcc jmh-logic, docs/calibration.md) "
                    + "and add it to a profile file");
        }
        Double preloaded = r.extra.get("location_cache_preloaded");
        if (preloaded != null && preloaded < 1) {
            out.add(String.format(Locale.ROOT, "the location cache (the profile's location_cache.mb) held %.1f%% of the loaded tuples at the"
                    + " preload: one-sided accesses to the rest look their tuple up in the index", 100 * preloaded));
        }
        return out;
    }
}
