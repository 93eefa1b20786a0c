package org.rccj.cli;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.rccj.framework.api.Stage;
import org.rccj.framework.run.Config;
import org.rccj.framework.run.RunResult;
import org.rccj.framework.stats.Histogram;
import org.rccj.framework.stats.TxnTypeStats;
import org.rccj.experiments.Runner;

/**
 * A deterministic stand-in for the experiment runner: figures are a function of the config. Stage i (in the
 * protocol's order) costs 1 + 0.6 i us one-sided and 2.5 us over RPC, so for fakeproto (READ, LOCK, VALIDATE,
 * LOG, COMMIT, RELEASE) the best code is READ+LOCK+VALIDATE = 35; the seed adds 10 ns per stage, coroutines 7 ns.
 * Throughput follows Little's law. Counts calls, remembers the configs and the most calls at once.
 */
final class FakeRuns implements Runner {
    static final int BEST = 35;

    final AtomicInteger calls = new AtomicInteger();
    final List<Config> configs = Collections.synchronizedList(new ArrayList<>());
    private final AtomicInteger running = new AtomicInteger();
    final AtomicInteger maxRunning = new AtomicInteger();
    private final long sleepMs;

    FakeRuns() { this(0); }

    /** @param sleepMs how long each run takes (to observe parallelism) */
    FakeRuns(long sleepMs) { this.sleepMs = sleepMs; }

    @Override
    public RunResult run(Config c, java.io.PrintStream progress) {
        calls.incrementAndGet();
        configs.add(c);
        int now = running.incrementAndGet();
        maxRunning.accumulateAndGet(now, Math::max);
        try {
            if (sleepMs > 0) Thread.sleep(sleepMs);
            return result(c);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        } finally {
            running.decrementAndGet();
        }
    }

    static RunResult result(Config c) { return result(c, 1000); }

    /** As {@link #result(Config)} with a one-sided READ (the first stage) costing {@code readOneSidedNs} instead of 1 us. */
    static RunResult result(Config c, long readOneSidedNs) {
        RunResult r = new RunResult();
        r.config = c;
        r.measuredS = 0.01;
        List<Stage> stages = c.protocolFactory().stages();
        long lat = 1000;
        for (int i = 0; i < stages.size(); i++) {
            Stage s = stages.get(i);
            long oneSided = s == Stage.READ ? readOneSidedNs : 1000 + 600L * i;
            long cost = (c.hybrid().oneSided(s) ? oneSided : 2500) + 10 * c.seed() + 7L * c.coroutines();
            Histogram h = new Histogram();
            for (int k = 0; k < 1000; k++) h.record(cost);
            r.stages.put(s, h);
            lat += cost;
        }
        TxnTypeStats t = new TxnTypeStats();
        double concurrency = c.nodes() * c.threads() * c.coroutines();
        t.commits = Math.round(concurrency * r.measuredS / (lat * 1e-9));
        t.aborts = 10 + c.hybrid().code();
        for (int k = 0; k < 1000; k++) t.latency.record(lat + k % 10);
        r.perType.put("transfer", t);
        r.total.add(t);
        r.abortReasons.put("lock_conflict", t.aborts);
        return r;
    }
}
