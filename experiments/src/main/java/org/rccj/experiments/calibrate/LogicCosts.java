package org.rccj.experiments.calibrate;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import org.rccj.primitives.RegisteredMemory;

/**
 * The CPU costs {@code rcc calibrate} times on this host's cores with plain loops (no JMH: the same
 * {@link LogicHarness} that {@code bench}'s LogicBench drives): a workload's logic per transaction type, the
 * framework's per-access work, and a local 8-byte memory operation on a fabric's own {@link RegisteredMemory}.
 * Every figure is this thread's CPU time, the median over {@link #WINDOWS} windows after {@link #WARM_WINDOWS}
 * ({@link #LOGIC_WARM_WINDOWS} for the logic) unmeasured ones (a loaded host takes the core away now and then; CPU time does not count that, the median drops
 * the windows a stall or a compilation still falls in).
 */
public final class LogicCosts {
    static final int WINDOWS = 7, WARM_WINDOWS = 3, LOGIC_WARM_WINDOWS = 10, BATCH = 128, LOCAL_OPS = 100_000;
    private static final ThreadMXBean MX = ManagementFactory.getThreadMXBean();

    private LogicCosts() {}

    /**
     * One transaction type: {@code logicNs} the logic's own CPU time per transaction (logic - accesses + walk, as
     * LogicBench); {@code perAccessNs} the replay's CPU time per access less its own bookkeeping ((accesses - walk) /
     * accesses per transaction): adding the access to the transaction, one fetch through the harness's fake executor
     * (a cached lookup and a copy of the record from registered memory), one field read or written.
     */
    public record Case(String kase, double logicNs, double logicMinNs, double logicMaxNs, double perAccessNs, double accessesPerTxn) {}

    /** Times {@code kase} ("workload/Type") in windows of {@code windowNs} (thread CPU time). */
    public static Case measure(String kase, long windowNs) {
        try (LogicHarness h = new LogicHarness(kase)) {
            double[] logic = new double[WINDOWS], access = new double[WINDOWS];
            long sink = 0;
            // a longer warm-up than the local ops': a type of hundreds of accesses runs only a few batches per window,
            // and its logic is a small difference of two large times
            for (int w = -LOGIC_WARM_WINDOWS; w < WINDOWS; w++) {
                long[] ns = new long[3];
                long ops = 0;
                while (ns[0] + ns[1] + ns[2] < windowNs) {
                    sink += h.paired(BATCH, ns);
                    ops += BATCH;
                }
                if (w < 0) continue;
                logic[w] = (double) (ns[0] - ns[1] + ns[2]) / ops;
                access[w] = (double) (ns[1] - ns[2]) / ops / Math.max(1e-9, h.accessesPerTransaction());
            }
            if (sink == 42) System.out.print("");   // keeps the loops' results alive
            double[] sorted = logic.clone();
            Arrays.sort(sorted);
            return new Case(kase, median(logic), sorted[0], sorted[sorted.length - 1], median(access), h.accessesPerTransaction());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(kase + ": the harness needs --add-opens java.base/java.util=ALL-UNNAMED (./rcc passes it)", e);
        }
    }

    /**
     * CPU ns of one local 8-byte operation on {@code m} (the memory a worker's local shortcut touches): {CAS, READ of
     * 8 bytes into a byte array}, each the median of {@link #WINDOWS} windows of {@link #LOCAL_OPS} after warm-up ones.
     */
    public static double[] localOpNs(RegisteredMemory m) {
        int region = m.register("calibrate-local-op", 1 << 16);
        byte[] dst = new byte[8];
        double[] cas = new double[WINDOWS], read = new double[WINDOWS];
        long v = 0;
        for (int w = -WARM_WINDOWS; w < WINDOWS; w++) {
            long t0 = MX.getCurrentThreadCpuTime();
            for (int i = 0; i < LOCAL_OPS; i++) {
                long off = (i & 1023) * 64L;
                v = m.cas(region, off, v, v + 1) + 1;
            }
            long t1 = MX.getCurrentThreadCpuTime();
            for (int i = 0; i < LOCAL_OPS; i++) m.read(region, (i & 1023) * 64L, dst, 0, 8);
            long t2 = MX.getCurrentThreadCpuTime();
            if (w < 0) continue;
            cas[w] = (double) (t1 - t0) / LOCAL_OPS;
            read[w] = (double) (t2 - t1) / LOCAL_OPS;
        }
        return new double[] {median(cas), median(read)};
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
