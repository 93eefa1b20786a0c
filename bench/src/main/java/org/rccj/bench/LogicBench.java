package org.rccj.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.rccj.experiments.calibrate.LogicHarness;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.util.ListStatistics;

/**
 * CPU time of each built-in workload's own transaction logic, per transaction type, on real cores: the figures
 * behind the profiles' {@code logic_ns.WORKLOAD.TYPE} (docs/calibration.md). One half of {@link #paired} runs a
 * transaction's pick, logic and fetch rounds against a fake protocol that serves records from local memory, the
 * other the same accesses without the logic (see {@link LogicHarness}); logic - accesses is the figure.
 *
 * <p>The figures are this thread's CPU time per transaction (see {@link Cpu}), not JMH's wall-clock score.
 * {@code ./rcc jmh-logic [JMH options]} runs every case and prints, per type, the median over iterations of each
 * benchmark and their difference; {@code ./rcc jmh LogicBench} prints JMH's own tables only.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 20, time = 300, timeUnit = TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/java.util=ALL-UNNAMED")
@State(Scope.Thread)
public class LogicBench {
    /**
     * The case; {@code ./rcc jmh-logic} (this class's {@link #main}) runs every case the workload registry lists
     * ({@link LogicHarness#CASES}); JMH's own runner ({@code ./rcc jmh LogicBench}) needs a constant and runs this
     * one unless given {@code -p kase=...}.
     */
    @Param({"smallbank/Amalgamate"})
    public String kase;

    private LogicHarness h;

    @Setup(Level.Trial)
    public void setup() throws ReflectiveOperationException { h = new LogicHarness(kase); }

    static final int BATCH = 128;

    /**
     * This thread's CPU time in each half of the paired benchmark, summed per iteration (JMH's own score is
     * wall-clock time for both halves, which on a shared machine also counts the time other processes hold the core).
     */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Cpu {
        public long logicNs, accessesNs, walkNs, ops;

        @Setup(Level.Iteration) public void clear() { logicNs = 0; accessesNs = 0; walkNs = 0; ops = 0; }
    }

    /**
     * {@link #BATCH} transactions of the type (pick, logic, fetch rounds), then {@link #BATCH} replays of recorded
     * accesses of the type without the logic, then {@link #BATCH} walks over the recorded accesses alone (the replay's
     * own bookkeeping, which the logic does not pay), each timed in thread CPU time. Interleaving the halves in one
     * JVM makes them see the same machine load and the same compiled framework code.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long paired(Cpu c) {
        long[] ns = new long[3];
        long s = h.paired(BATCH, ns);
        c.logicNs += ns[0];
        c.accessesNs += ns[1];
        c.walkNs += ns[2];
        c.ops += BATCH;
        return s;
    }

    /** Runs both benchmarks for every case (or JMH's -p kase=...) and prints logic - accesses per type. */
    public static void main(String[] args) throws Exception {
        CommandLineOptions cli = new CommandLineOptions(args);
        OptionsBuilder options = new OptionsBuilder();
        options.parent(cli).include(LogicBench.class.getName() + "\\.");
        if (cli.getParameter("kase").orElse(null) == null) options.param("kase", LogicHarness.CASES.toArray(String[]::new));
        Collection<RunResult> results = new Runner(options.build()).run();
        TreeMap<String, ListStatistics[]> byCase = new TreeMap<>();
        for (RunResult r : results) {
            ListStatistics[] st = {new ListStatistics(), new ListStatistics(), new ListStatistics()};   // logic, accesses, difference
            for (BenchmarkResult b : r.getBenchmarkResults()) {
                for (IterationResult it : b.getIterationResults()) {
                    double ops = it.getSecondaryResults().get("ops").getScore();
                    if (ops == 0) continue;
                    double l = it.getSecondaryResults().get("logicNs").getScore() / ops, a = it.getSecondaryResults().get("accessesNs").getScore() / ops;
                    double w = it.getSecondaryResults().get("walkNs").getScore() / ops;
                    st[0].addValue(l);
                    st[1].addValue(a - w);
                    st[2].addValue(l - a + w);
                }
            }
            byCase.put(r.getParams().getParam("kase"), st);
        }
        List<String> order = new ArrayList<>(LogicHarness.CASES);
        order.retainAll(byCase.keySet());
        System.out.println();
        System.out.println("CPU ns per transaction, median over iterations (min-max); accesses = the replay less its own bookkeeping "
                + "(walk); logic_ns = median of the per-iteration differences +- the 99.9% confidence half-width of their mean");
        System.out.println(String.format(Locale.ROOT, "%-28s %-26s %-26s %s", "case", "logic", "accesses", "logic_ns"));
        for (String k : order) {
            ListStatistics[] s = byCase.get(k);
            if (s[2].getN() == 0) continue;
            System.out.println(String.format(Locale.ROOT, "%-28s %8.1f (%.1f-%.1f)   %8.1f (%.1f-%.1f)   %8.1f +- %.1f", k,
                    s[0].getPercentile(50), s[0].getMin(), s[0].getMax(), s[1].getPercentile(50), s[1].getMin(), s[1].getMax(),
                    s[2].getPercentile(50), s[2].getN() > 1 ? s[2].getMeanErrorAt(0.999) : Double.NaN));
        }
    }

}
