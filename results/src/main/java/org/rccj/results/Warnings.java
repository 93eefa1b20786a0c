package org.rccj.results;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.spi.ProtocolFactory;
import org.rccj.framework.api.Stage;

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

    private static final String DURATION = Config.DURATION_MS.key();

    static List<String> of(RunResult r, int cores) {
        List<String> out = new ArrayList<>();
        Config c = r.config;
        long commits = r.commits();
        double windowUs = r.measuredS * 1e6;
        if (commits == 0) {
            out.add("no commits in the measured window: every figure is empty; raise " + DURATION + " (or " + Config.WARMUP_MS.key()
                    + ") or check the config");
        } else if (commits < FEW_COMMITS) {
            out.add("only " + commits + " commits in the measured window (fewer than " + FEW_COMMITS + "): the figures are noisy; raise " + DURATION);
        }
        double maxUs = r.total.latency.max() / 1e3;
        if (commits > 0 && windowUs < maxUs) {
            out.add(String.format(Locale.ROOT, "the measured window (%.1f us) is shorter than the longest transaction (%.1f us): "
                    + "transactions straddle its ends; raise %s", windowUs, maxUs, DURATION));
        }
        if (!c.fabricFactory().virtualTime() && (long) c.nodes() * c.threads() > cores) {
            out.add("oversubscribed: " + (c.nodes() * c.threads()) + " worker threads (" + c.nodes() + " nodes x " + c.threads() + " threads) on "
                    + cores + " cores: workers time-share cores, so " + c.fabric() + "-fabric wall-clock figures understate the protocol");
        }
        out.addAll(HostNoise.warnings(r));
        if (!r.freeLogic.isEmpty()) {
            out.add("profile " + c.fabricSetting("profile") + " has no logic_ns." + c.workloadName().toLowerCase(Locale.ROOT) + ".TYPE for "
                    + String.join(", ", r.freeLogic) + ": that logic costs no simulated CPU; measure it (./rcc jmh-logic, docs/calibration.md) "
                    + "and add it to a profile file");
        }
        settingsWithoutEffect(c, out);
        if (Boolean.TRUE.equals(c.fabricSetting("faults.torn_reads")) && r.network.read == 0 && commits > 0) {
            out.add("faults.torn_reads cannot occur: no one-sided READ was posted in the measured window (hybrid code " + c.hybrid().spelled()
                    + " binds no stage that reads one-sided), so no READ can be torn; bind READ (or another stage that reads) one-sided");
        }
        out.addAll(c.protocolFactory().warnings(r.extra, commits, c.protocolOptions()));
        Double preloaded = r.extra.get("location_cache_preloaded");
        if (preloaded != null && preloaded < 1) {
            out.add(String.format(Locale.ROOT, "the location cache (the profile's location_cache.mb) held %.1f%% of the loaded tuples at the"
                    + " preload: one-sided accesses to the rest look their tuple up in the index", 100 * preloaded));
        }
        return out;
    }

    /** Settings a run asked for that cannot change it: said in the result rather than accepted silently (issue 33). */
    static void settingsWithoutEffect(Config c, List<String> out) {
        ProtocolFactory pf = c.protocolFactory();
        if (c.passiveAck() && !pf.passiveAckApplies()) {
            out.add(Config.PASSIVE_ACK.key() + ": true has no effect on protocol " + pf.name() + " (it sends no COMMIT RPC that could go passive): "
                    + "this run is the same as without it");
        }
        if (c.fetchOneByOne() && !pf.fetchOneByOneApplies()) {
            out.add(Config.FETCH_ITEMS.key() + ": one_by_one has no effect on protocol " + pf.name() + " (its participants replay a transaction's reads "
                    + "as one batch): this run fetches together");
        }
        if (Boolean.TRUE.equals(c.fabricSetting("faults.cpu_local_atomics"))) {
            out.add("faults.cpu_local_atomics: CPU atomics skip the loopback that incoherent NIC atomics need, so updates are lost "
                    + "by design (a test of the checker): a failed verification here says nothing about protocol " + pf.name());
        }
        if (Boolean.TRUE.equals(c.fabricSetting("faults.incoherent_atomics"))) {
            // the stages that post NIC atomics with this run's protocol_options (NOWAIT's RELEASE only with read_locks: shared)
            List<Stage> atomicStages = pf.nicAtomicStages(c.protocolOptions());
            int code = c.hybrid().code(), atomics = Stage.mask(atomicStages);
            boolean cpuLocal = !(c.localThroughNic() && pf.localAccessThroughNic());
            if (atomics == 0) {
                out.add("faults.incoherent_atomics cannot occur: protocol " + pf.name() + " posts no NIC atomics on words a CPU atomic also "
                        + "updates, in any hybrid code, so no code makes the fault act on it; drop faults.incoherent_atomics");
            } else if ((code & atomics) == 0) {
                out.add("faults.incoherent_atomics cannot occur: hybrid code " + c.hybrid().spelled() + " binds no stage that posts NIC atomics "
                        + "one-sided, so no NIC atomic runs; bind one of " + names(atomicStages) + " one-sided");
            } else if (!cpuLocal && (code & atomics) == atomics) {
                out.add("faults.incoherent_atomics cannot occur: every atomic goes through the NIC (" + Config.LOCAL_ACCESS.key() + ": network and every "
                        + "atomic stage one-sided), so no CPU atomic meets a NIC atomic; set " + Config.LOCAL_ACCESS.key() + "=cpu, or bind one of "
                        + names(atomicStages) + " to RPC");
            }
        }
        out.addAll(pf.optionsWithoutEffect(c.hybrid().code(), c.protocolOptions()));
        if (c.hybrid().code() == 0 && c.preloadLocationCache()) {
            out.add(Config.LOCATION_CACHE + "." + Config.LOCATION_CACHE_PARAMS.get(0).key() + ": true has no effect on hybrid code all-rpc: only one-sided accesses look tuples up in the location"
                    + " cache, and this code binds no stage one-sided; it only costs load time and memory; drop it (auto preloads when a stage is"
                    + " one-sided)");
        }
    }

    private static String names(List<Stage> stages) {
        List<String> n = new ArrayList<>();
        for (Stage s : stages) n.add(s.name());
        return String.join(", ", n);
    }
}
