package org.rccj.experiments.robust;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.rccj.framework.spi.HybridCode;
import org.rccj.framework.api.Stage;
import org.rccj.hybrid.CodeResult;
import org.rccj.hybrid.GuidedModel;
import org.rccj.hybrid.HybridTable;
import org.rccj.hybrid.Ranking;
import org.rccj.hybrid.Shard;
import org.rccj.results.RunMetrics;

/**
 * {@code rcc robust}'s experiment, independent of how runs are executed (an {@link Executor} runs them; the
 * command's runs are resumable result directories, so replaying the study over finished runs reruns nothing):
 * <ol>
 * <li>the winner under the base profile, from every code or from guided search within a budget ({@link GuidedModel});
 * <li>the top codes (the best {@link #TOP} plus both pure codes) re-ranked under every named profile and under each
 *     parameter scaled by {@code 1 - f} and {@code 1 + f};
 * <li>for each parameter whose full change flips the winner (the base winner no longer within noise of the top;
 *     {@link Standing}), the smallest change that flips it, by bisection to {@link #RESOLUTION} of the parameter.
 * </ol>
 * Bisection assumes the ranking moves monotonically with the parameter between 0 and f.
 */
public final class RobustStudy {
    /** Codes kept from the base ranking (the pure codes come on top). */
    public static final int TOP = 5;
    /** Bisection stops when the flip is located within this fraction of the parameter: 5%. */
    public static final double RESOLUTION = 0.05;

    /** One run: a code under a variant's profile with one seed. */
    public record Job(Variant variant, int code, long seed) {}

    /** Runs jobs (skipping finished ones) and returns the metrics of those that finished; failed jobs are absent. */
    public interface Executor {
        Map<Job, RunMetrics> run(String phase, List<Job> jobs) throws Exception;

        /** The jobs without a finished result (a shard of an array job refuses to start the base search itself). */
        List<Job> unfinished(List<Job> jobs);
    }

    /**
     * What to study. @param budget null: every code; else guided search with this many codes after the probes
     * @param from null, or the base ranking already measured (an enumeration's results by code): step 1 runs nothing
     */
    public record Settings(List<Stage> stages, String baseProfile, List<Variant> profiles, List<ProfileVariants.Param> params,
                           double fraction, Integer budget, int repeat, long seed, Path profileDir, Shard shard, boolean baseOnly,
                           Map<Integer, CodeResult> from) {}

    /** A parameter whose change flips the winner: it flips at {@code flipsAt} (signed), not at {@code holdsAt}. */
    public record Tipping(ProfileVariants.Param param, double flipsAt, double holdsAt, Standing atFlip, List<Standing> steps) {
        /** The code that wins at the flip. */
        public CodeResult to() { return atFlip.top(); }
    }

    /**
     * The study's outcome (null parts when a shard or --base-only stopped early). @param search how the base ranking
     * was found (every code, guided search with its budget, or an enumeration); @param unseen the codes it has no
     * result for (guided search saw only the others: a better code among these would go unnoticed); @param codes
     * how many codes there are
     */
    public record Outcome(List<CodeResult> baseTable, Standing base, List<Integer> candidates, List<Standing> standings,
                          List<Tipping> tippings, List<String> notes, String search, List<Integer> unseen, int codes) {}

    private final Settings s;
    private final Executor exec;
    private final Consumer<String> log;
    private final Map<String, String> baseRaw;

    public RobustStudy(Settings s, Executor exec, Consumer<String> log) {
        this.s = s;
        this.exec = exec;
        this.log = log;
        this.baseRaw = ProfileVariants.raw(s.baseProfile());
    }

    /** The variants of step 2 in report order: the named profiles, then each parameter down and up. Writes their profiles. */
    public List<Variant> variants(List<String> notes) throws IOException {
        List<Variant> out = new ArrayList<>(s.profiles());
        for (ProfileVariants.Param p : s.params()) {
            if (ProfileVariants.value(baseRaw, p.key()) == 0) {
                notes.add(p.key() + " is 0 in " + s.baseProfile() + ": scaling it changes nothing, left out");
                continue;
            }
            for (double f : new double[] {-s.fraction(), s.fraction()}) out.add(perturbed(p, f));
        }
        return out;
    }

    private Variant perturbed(ProfileVariants.Param p, double f) throws IOException {
        String name = Variant.perturbedName(p.key(), f);
        Path file = ProfileVariants.write(s.profileDir(), name, s.baseProfile(), baseRaw, p.key(), f);
        return Variant.perturbed(p.key(), p.name(), f, file.toString());
    }

    /** The base search's jobs: every code, or guided search's probes (its chosen codes depend on their results). */
    public List<Job> baseJobs() {
        List<Integer> codes = new ArrayList<>();
        if (s.budget() == null) for (HybridCode hc : HybridCode.all(s.stages())) codes.add(hc.code());
        else codes.addAll(GuidedModel.probes(s.stages(), GuidedModel.Probes.PURE));
        return jobs(Variant.base(s.baseProfile()), codes);
    }

    /** A shard needs the base search finished (by --base-only): else a one-line error, before any run. */
    public void checkShardReady() {
        if (!s.shard().isAll() && s.from() == null) {
            List<Job> missing = exec.unfinished(baseJobs());
            if (!missing.isEmpty()) {
                throw new org.rccj.framework.config.ConfigException("robust: --shard " + s.shard() + ": the base search has " + missing.size()
                        + " unfinished runs in this directory; run it first with --base-only (see 'rcc help robust')");
            }
        }
    }

    public Outcome run() throws Exception {
        List<String> notes = new ArrayList<>();
        List<Variant> variants = variants(notes); // every profile written and checked before any run
        Variant base = Variant.base(s.baseProfile());
        String search = s.from() != null ? "the enumeration given (--from)"
                : s.budget() == null ? "every code" : "guided search, budget " + s.budget();
        log.accept("robust: step 1 of 3: the winner under " + s.baseProfile() + " (" + search + ")");
        Map<Integer, CodeResult> baseResults;
        if (s.from() != null) {
            baseResults = new LinkedHashMap<>(s.from());
        } else {
            baseResults = results(exec.run("base", baseJobs()));
            if (s.budget() != null && baseResults.keySet().containsAll(GuidedModel.probes(s.stages(), GuidedModel.Probes.PURE))) { // guided: the codes chosen from the probes' figures alone, as enumerate --strategy guided
                List<Integer> chosen = GuidedModel.selection(s.stages(), baseResults, GuidedModel.Probes.PURE, s.budget());
                baseResults.putAll(results(exec.run("base", jobs(base, chosen))));
            }
        }
        List<Integer> unseen = new ArrayList<>();
        for (HybridCode hc : HybridCode.all(s.stages())) if (!baseResults.containsKey(hc.code())) unseen.add(hc.code());
        int codes = 1 << s.stages().size();
        if (baseResults.isEmpty()) throw new org.rccj.framework.config.ConfigException("robust: no code of the base search finished all its runs (see their result directories); nothing to rank");
        List<CodeResult> baseTable = new ArrayList<>(new java.util.TreeMap<>(baseResults).values());
        List<CodeResult> ranked = Ranking.rank(baseTable);
        int winner = ranked.get(0).code();
        List<Integer> candidates = candidates(ranked);
        Standing baseStanding = Standing.of(base, subset(baseResults, candidates), winner);
        if (s.baseOnly()) return new Outcome(baseTable, baseStanding, candidates, null, null, notes, search, unseen, codes);

        List<Variant> mine = new ArrayList<>();
        for (int i = 0; i < variants.size(); i++) if (s.shard().selects(i)) mine.add(variants.get(i));
        log.accept("robust: step 2 of 3: codes " + join(candidates) + " under " + mine.size() + " profiles and perturbations"
                + (s.shard().isAll() ? "" : " (shard " + s.shard() + " of " + variants.size() + ")"));
        List<Job> jobs = new ArrayList<>();
        for (Variant v : mine) jobs.addAll(jobs(v, candidates));
        Map<Job, RunMetrics> done = exec.run("variants", jobs);
        List<Standing> standings = new ArrayList<>();
        standings.add(baseStanding);
        for (Variant v : mine) {
            Map<Integer, CodeResult> r = results(only(done, v));
            if (r.isEmpty()) notes.add(v.label() + ": no run finished");
            else standings.add(Standing.of(v, r.values(), winner));
        }
        List<Tipping> tippings = tippings(standings, candidates, winner);
        return new Outcome(baseTable, baseStanding, candidates, standings, tippings, notes, search, unseen, codes);
    }

    /** The best {@link #TOP} codes of the base ranking and both pure codes (when measured), ascending. */
    private List<Integer> candidates(List<CodeResult> ranked) {
        Set<Integer> out = new java.util.TreeSet<>();
        for (CodeResult c : ranked.subList(0, Math.min(TOP, ranked.size()))) out.add(c.code());
        for (CodeResult c : ranked) if (c.code() == 0 || c.code() == Stage.mask(s.stages())) out.add(c.code());
        return new ArrayList<>(out);
    }

    /** Step 3: bisection of every parameter and direction whose full change flips the winner, all in step. */
    private List<Tipping> tippings(List<Standing> standings, List<Integer> candidates, int winner) throws Exception {
        record Search(ProfileVariants.Param param, double sign, double[] lohi, List<Standing> steps, Standing[] atHi) {}
        List<Search> searches = new ArrayList<>();
        for (Standing st : standings) {
            Variant v = st.variant();
            if (v.kind() != Variant.Kind.PERTURBED || !st.flipped()) continue;
            ProfileVariants.Param p = s.params().stream().filter(q -> q.key().equals(v.param())).findFirst().orElseThrow();
            searches.add(new Search(p, Math.signum(v.fraction()), new double[] {0, Math.abs(v.fraction())}, new ArrayList<>(), new Standing[] {st}));
        }
        if (!searches.isEmpty()) {
            log.accept("robust: step 3 of 3: tipping points of " + searches.size() + " flipping change" + (searches.size() == 1 ? "" : "s")
                    + ", bisection to " + Math.round(100 * RESOLUTION) + "%");
        }
        while (true) {
            Map<Search, Variant> round = new LinkedHashMap<>();
            for (Search x : searches) {
                if (x.lohi()[1] - x.lohi()[0] <= RESOLUTION + 1e-9) continue;
                double mid = Math.round((x.lohi()[0] + x.lohi()[1]) / 2 * 1e4) / 1e4;
                round.put(x, perturbed(x.param(), x.sign() * mid));
            }
            if (round.isEmpty()) break;
            List<Job> jobs = new ArrayList<>();
            for (Variant v : round.values()) jobs.addAll(jobs(v, candidates));
            Map<Job, RunMetrics> done = exec.run("tipping", jobs);
            for (Map.Entry<Search, Variant> e : round.entrySet()) {
                Search x = e.getKey();
                Map<Integer, CodeResult> r = results(only(done, e.getValue()));
                double mid = Math.abs(e.getValue().fraction());
                if (r.isEmpty()) { // no result: give up on this one, keep what is known
                    x.lohi()[0] = x.lohi()[1];
                    continue;
                }
                Standing st = Standing.of(e.getValue(), r.values(), winner);
                x.steps().add(st);
                if (st.flipped()) {
                    x.lohi()[1] = mid;
                    x.atHi()[0] = st;
                } else {
                    x.lohi()[0] = mid;
                }
            }
        }
        List<Tipping> out = new ArrayList<>();
        for (Search x : searches) {
            out.add(new Tipping(x.param(), x.sign() * x.lohi()[1], x.sign() * x.lohi()[0], x.atHi()[0], List.copyOf(x.steps())));
        }
        return out;
    }

    private List<Job> jobs(Variant v, List<Integer> codes) {
        List<Job> out = new ArrayList<>();
        for (int c : codes) for (int r = 0; r < s.repeat(); r++) out.add(new Job(v, c, s.seed() + r));
        return out;
    }

    private static Map<Job, RunMetrics> only(Map<Job, RunMetrics> done, Variant v) {
        Map<Job, RunMetrics> out = new LinkedHashMap<>();
        for (Map.Entry<Job, RunMetrics> e : done.entrySet()) if (e.getKey().variant().equals(v)) out.put(e.getKey(), e.getValue());
        return out;
    }

    /** The finished runs grouped by code (a code some of whose seeds failed is left out: its CI would not compare). */
    private Map<Integer, CodeResult> results(Map<Job, RunMetrics> done) {
        Map<Integer, CodeResult> out = new LinkedHashMap<>();
        for (CodeResult c : HybridTable.byCode(done.values())) if (c.runs().size() == s.repeat()) out.put(c.code(), c);
        return out;
    }

    private static List<CodeResult> subset(Map<Integer, CodeResult> all, List<Integer> codes) {
        List<CodeResult> out = new ArrayList<>();
        for (int c : codes) out.add(all.get(c));
        return out;
    }

    static String join(List<Integer> codes) {
        Set<String> s = new LinkedHashSet<>();
        for (int c : codes) s.add(Integer.toString(c));
        return String.join(", ", s);
    }
}
